// `kbctx search <query>`: the same parameters and validation as the REST and MCP search tool.
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import type { CliContext } from '../../cli/api.ts';
import {
  parseSearchParams,
  search,
  searchResponseToWire,
  withRequestOrigin,
  type SearchResponse,
} from '../../../core/api/use-cases.ts';

export function registerSearch(program: Command, ctx: CliContext): void {
  program
    .command('search')
    .description('search the index (keyword by default)')
    .argument('<query...>', 'words or a question')
    .option('--mode <mode>', 'keyword | semantic | hybrid')
    .option('--limit <n>', 'maximum number of documents', parseInteger)
    .option('--source <source>', 'only this connector label (git:docs) or type (git)')
    .option('--since <when>', 'only documents updated since a date (2026-01-31) or a duration (7d, 12h)')
    .option('--explain', 'show how each result was scored')
    .option('--rerank', 'rerank with the configured reranker (the default when one is configured)')
    .option('--no-rerank', 'skip the configured reranker: the fused order')
    .action(
      async (
        words: string[],
        opts: { mode?: string; limit?: number; source?: string; since?: string; explain?: boolean; rerank?: boolean },
      ) => {
        const kbctx = ctx.kbctx();
        await kbctx.ready(); // query and rank taps of configured plugins (nothing to import by default)
        const params = parseSearchParams(
          {
            query: words.join(' '),
            mode: opts.mode,
            limit: opts.limit,
            source: opts.source,
            since: opts.since,
            explain: opts.explain === true,
            rerank: opts.rerank,
          },
          kbctx.config.retrieval,
        );
        const response = await withRequestOrigin(CLI_ORIGIN, () => search(kbctx.index.searchDeps(), params));
        if (ctx.json) ctx.printJson(searchResponseToWire(response, params.explain));
        else ctx.io.out(formatResults(response, params.explain));
      },
    );
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
      `mode: ${e.mode}  alpha: ${e.alpha ?? '-'}  keyword candidates: ${e.keywordCandidates}  vector candidates: ${e.vectorCandidates}`,
      `terms: ${e.terms.join(' ') || '-'}`,
      '',
    );
  }
  if (response.results.length === 0) lines.push('No results.');
  response.results.forEach((r, i) => {
    lines.push(`${i + 1}. ${r.title}  [${r.score.toFixed(3)}]`);
    lines.push(`   ${r.source} · ${r.sourceId}`);
    if (explain && r.explain) {
      const f = (n: number | null): string => (n === null ? '-' : n.toFixed(4));
      lines.push(
        `   keyword ${f(r.explain.keywordScore)}  semantic ${f(r.explain.semanticScore)}  hybrid ${f(r.explain.hybridScore)}  updated ${r.updatedAt}`,
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
