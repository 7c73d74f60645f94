// `kbctx stats`: database path and size, counts, embedded share, and a per-source table.
import type { Command } from 'commander';
import type { Kbctx } from '../../../core/api/plugin.ts';
import { indexStats, statsToWire, type Stats } from '../../tools-builtin/api.ts';
import { formatBytes, formatTable, type CliContext } from '../../cli/api.ts';

export function registerStats(program: Command, ctx: CliContext): void {
  program
    .command('stats')
    .description('show index statistics')
    .action(async () => {
      const kbctx = ctx.kbctx();
      await kbctx.ready(); // a configured plugin may provide the embedder (which vectors are current) or the store
      const s = await indexStats(kbctx.store, kbctx.index.connectorLabels(), embeddingModel(kbctx));
      if (ctx.json) return ctx.printJson({ config_file: kbctx.config.file, ...statsToWire(s) });
      const out = [
        `Config:    ${kbctx.config.file ?? 'built-in default (no config file found)'}`,
        `Database:  ${s.dbPath} (${formatBytes(s.dbSizeBytes)})`,
        `Documents: ${s.counts.documents}`,
        `Chunks:    ${s.counts.chunks}`,
        `Embedded:  ${s.counts.embedded} (${s.embeddedPercent}%)`,
        ...embeddingLines(s.embeddings),
        '',
      ].join('\n');
      const table = formatTable(
        ['Source', 'Docs', 'Chunks', 'Embedded', 'Last sync'],
        s.sources.map((r) => [r.source, r.documentCount, r.chunkCount, r.embeddedCount, r.lastSyncAt ?? 'never']),
      );
      ctx.io.out(`${out}\n${s.sources.length > 0 ? table : 'No sources.\n'}`);
    });
}

function embeddingModel(kbctx: Kbctx): { model: string; dims: number | null } | null {
  try {
    return kbctx.index.embedder() ?? null;
  } catch {
    return null; // a broken [embedding] section must not break stats
  }
}

/** One line per stored model; vectors of another model or dims than the configured one are stale. */
function embeddingLines(spaces: Stats['embeddings']): string[] {
  const lines = spaces.map((e) => `  ${e.current ? 'current' : 'STALE  '}  ${e.model} (${e.dims} dims): ${e.count}`);
  if (spaces.some((e) => !e.current))
    lines.push('  stale embeddings (another model or dims): run `kbctx embed rebuild`');
  return lines;
}
