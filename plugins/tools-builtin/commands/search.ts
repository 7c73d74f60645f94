// `kbctx search <query>`: the same parameters and validation as the REST and MCP search tool; the filter
// flags (--path, --lang, --type, --tag, --tag-all, --meta, --source, --until) become its `filters` object.
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import type { CliContext } from '../../cli/api.ts';
import { search, withRequestOrigin, type SearchResponse } from '../../../core/api/use-cases.ts';
import { citation, searchResponseToWire } from '../wire.ts';
import { parseSearchParams } from '../search-params.ts';

export function registerSearch(program: Command, ctx: CliContext): void {
  program
    .command('search')
    .description('search the index (keyword by default)')
    .argument('<query...>', 'words or a question')
    .option('--mode <mode>', 'keyword | semantic | hybrid')
    .option('--limit <n>', 'maximum number of documents', parseInteger)
    .option(
      '--source <source>',
      'only these connector labels (git:docs) or types (git); repeat or comma-separate',
      list,
    )
    .option('--since <when>', 'only documents updated since a date (2026-01-31) or a duration (7d, 12h)')
    .option('--until <when>', 'only documents updated before a date or a duration')
    .option('--path <glob>', 'only paths or URLs matching the glob (docs/**); !glob excludes; repeatable', repeat)
    .option('--lang <lang>', 'only these languages by file extension (typescript, python, …); comma-separate', list)
    .option('--type <type>', 'only these content types (text/markdown) or short forms (markdown, pdf)', list)
    .option('--tag <tag>', 'only documents with any of these tags (front matter or metadata); comma-separate', list)
    .option('--tag-all <tag>', 'only documents with all of these tags', list)
    .option('--meta <key=value>', 'only documents whose metadata key has this value; repeat a key for any of', meta)
    .option('--explain', 'show how each result was scored')
    .option('--rerank', 'rerank with the configured reranker (the default when one is configured)')
    .option('--no-rerank', 'skip the configured reranker: the fused order')
    .action(async (words: string[], opts: SearchOptions) => {
      const kbctx = ctx.kbctx();
      await kbctx.ready(); // query and rank taps of configured plugins (nothing to import by default)
      const params = parseSearchParams(
        {
          query: words.join(' '),
          mode: opts.mode,
          limit: opts.limit,
          since: opts.since,
          until: opts.until,
          filters: cliFilters(opts),
          explain: opts.explain === true,
          rerank: opts.rerank,
        },
        kbctx.config.retrieval,
      );
      const response = await withRequestOrigin(CLI_ORIGIN, () => search(kbctx.index.searchDeps(), params));
      if (ctx.json) ctx.printJson(searchResponseToWire(response, params.explain));
      else ctx.io.out(formatResults(response, params.explain));
    });
}

interface SearchOptions {
  mode?: string;
  limit?: number;
  source?: string[];
  since?: string;
  until?: string;
  path?: string[];
  lang?: string[];
  type?: string[];
  tag?: string[];
  tagAll?: string[];
  meta?: Record<string, string[]>;
  explain?: boolean;
  rerank?: boolean;
}

/** The filter flags as the search tool's `filters` object (undefined when none is given). */
function cliFilters(opts: SearchOptions): Record<string, unknown> | undefined {
  const filters = Object.fromEntries(
    Object.entries({
      source: opts.source,
      path: opts.path,
      lang: opts.lang,
      type: opts.type,
      tags: opts.tag,
      tags_all: opts.tagAll,
      meta: opts.meta,
    }).filter(([, v]) => v !== undefined),
  );
  return Object.keys(filters).length === 0 ? undefined : filters;
}

/** A repeatable flag. */
function repeat(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** A repeatable, comma-separated flag. */
function list(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), ...value.split(',').map((v) => v.trim())];
}

/** `--meta key=value`, repeatable; the same key again adds a value it may have. */
function meta(value: string, previous: Record<string, string[]> | undefined): Record<string, string[]> {
  const at = value.indexOf('=');
  if (at <= 0) throw new InvalidArgumentError('must be key=value, e.g. team=infra');
  const key = value.slice(0, at).trim();
  const out = { ...previous };
  out[key] = [...(out[key] ?? []), value.slice(at + 1).trim()];
  return out;
}

/** The CLI runs with no token: it opens the index itself. */
const CLI_ORIGIN = { surface: 'cli', token: null } as const;

function parseInteger(value: string): number {
  if (!/^-?\d+$/.test(value.trim())) throw new InvalidArgumentError('must be a whole number');
  return Number(value);
}

function formatResults(response: SearchResponse, explain: boolean): string {
  const lines: string[] = [];
  if (explain) {
    const e = response.explain;
    lines.push(
      `mode: ${e.mode}  alpha: ${e.alpha ?? '-'}  keyword candidates: ` +
        `${e.keywordCandidates}  vector candidates: ${e.vectorCandidates}`,
      `terms: ${e.terms.join(' ') || '-'}`,
      '',
    );
  }
  if (response.results.length === 0) lines.push('No results.');
  response.results.forEach((r, i) => {
    lines.push(`${i + 1}. ${r.title}  ${citation(r)}  [${r.score.toFixed(3)}]`);
    lines.push(`   ${r.source} · ${r.sourceId}${r.symbol ? ` · ${r.symbol}` : ''}`);
    if (explain && r.explain) {
      const f = (n: number | null): string => (n === null ? '-' : n.toFixed(4));
      lines.push(
        `   keyword ${f(r.explain.keywordScore)}  semantic ${f(r.explain.semanticScore)}  hybrid ` +
          `${f(r.explain.hybridScore)}  updated ${r.updatedAt}`,
      );
      if (r.explain.fusedRank !== undefined)
        lines.push(`   rerank ${f(r.explain.rerankScore ?? null)}  fused rank ${r.explain.fusedRank}`);
      if (r.explain.rerankNote) lines.push(`   note: ${r.explain.rerankNote}`);
    }
    lines.push(`   ${r.snippet}`);
    lines.push(`   id: ${r.id}`);
    lines.push('');
  });
  return `${lines.join('\n').trimEnd()}\n`;
}
