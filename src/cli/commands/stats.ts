// `lore stats`: database path and size, counts, embedded share, and a per-source table.
import type { Command } from 'commander';
import { indexStats } from '../../app/sources.ts';
import { statsToWire } from '../../app/wire.ts';
import type { CliContext } from '../context.ts';
import { formatBytes, formatTable } from '../table.ts';

export function registerStats(program: Command, ctx: CliContext): void {
  program
    .command('stats')
    .description('show index statistics')
    .action(() => {
      const lore = ctx.lore();
      const s = indexStats(lore.store, lore.connectorLabels());
      if (ctx.json) return ctx.printJson(statsToWire(s));
      const out = [
        `Database:  ${s.dbPath} (${formatBytes(s.dbSizeBytes)})`,
        `Documents: ${s.counts.documents}`,
        `Chunks:    ${s.counts.chunks}`,
        `Embedded:  ${s.counts.embedded} (${s.embeddedPercent}%)`,
        '',
      ].join('\n');
      const table = formatTable(
        ['Source', 'Docs', 'Chunks', 'Embedded', 'Last sync'],
        s.sources.map((r) => [r.source, r.documentCount, r.chunkCount, r.embeddedCount, r.lastSyncAt ?? 'never']),
      );
      ctx.io.out(`${out}\n${s.sources.length > 0 ? table : 'No sources.\n'}`);
    });
}
