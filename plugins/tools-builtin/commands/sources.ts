// `kbctx sources`: configured and indexed sources with counts and status.
import type { Command } from 'commander';
import type { CliContext } from '../../cli/api.ts';
import { listSources } from '../sources.ts';
import { describeStatus, sourcesToWire } from '../wire.ts';
import { formatTable } from '../../cli/api.ts';

export function registerSources(program: Command, ctx: CliContext): void {
  program
    .command('sources')
    .description('list sources: documents, chunks and how its last sync ended')
    .action(async () => {
      const kbctx = ctx.kbctx();
      const rows = await listSources(kbctx.store, kbctx.index.connectorLabels());
      if (ctx.json) return ctx.printJson(sourcesToWire(rows));
      if (rows.length === 0)
        return ctx.io.out('No sources configured. Add a [connectors.<type>.<name>] section to the config.\n');
      ctx.io.out(
        formatTable(
          ['Source', 'Documents', 'Chunks', 'Status'],
          rows.map((r) => [r.source, r.documentCount, r.chunkCount, describeStatus(r)]),
        ),
      );
    });
}
