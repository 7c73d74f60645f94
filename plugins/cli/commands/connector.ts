// `kbctx connector list [--json]`: the configured connectors and where each reads from (config only: no
// index, no network). The Lua bridge adds `connector init|test` for script connectors.
import type { Command } from 'commander';
import type { Config } from '../../../core/api/plugin.ts';
import { configuredConnectors, type ConnectorRef } from '../../../core/api/engine.ts';
import type { CliContext } from '../context.ts';
import { formatTable } from '../table.ts';
import { filesystemConnectorsOf } from '../../connector-filesystem/api.ts';
import { gitConnectorsOf } from '../../connector-git/api.ts';
import { s3ConnectorsOf } from '../../connector-s3/api.ts';
import { scriptConnectorsOf } from '../../lua-bridge/api.ts';

export function registerConnector(program: Command, ctx: CliContext): void {
  const connector = program
    .command('connector')
    .description('connectors: list (and Lua script connectors: init, test)');
  connector
    .command('list')
    .description('list the configured connectors: type and where each reads from')
    .action(() => {
      const config = ctx.config();
      const rows = configuredConnectors(config).map((ref) => ({
        connector: ref.label,
        type: ref.type,
        source: sourceOf(config, ref),
      }));
      if (ctx.json) return ctx.printJson({ connectors: rows });
      if (rows.length === 0)
        return ctx.io.out('No connectors configured. Add a [connectors.<type>.<name>] section to the config.\n');
      ctx.io.out(
        formatTable(
          ['Connector', 'Type', 'Source'],
          rows.map((r) => [r.connector, r.type, r.source]),
          { width: ctx.io.columns ?? 80, shrink: 2 },
        ),
      );
    });
}

/** Where the connector reads from, in one line. */
function sourceOf(config: Config, ref: ConnectorRef): string {
  switch (ref.type) {
    case 'filesystem':
      return filesystemConnectorsOf(config)[ref.name]?.root ?? '';
    case 'git': {
      const g = gitConnectorsOf(config)[ref.name];
      return g ? `${g.url} (${g.branch}${g.root === '.' || g.root === '' ? '' : `, ${g.root}`})` : '';
    }
    case 's3': {
      const s = s3ConnectorsOf(config)[ref.name];
      return s ? `s3://${s.bucket}/${s.prefix}` : '';
    }
    case 'script':
      return scriptConnectorsOf(config)[ref.name]?.path ?? '';
    default:
      return `extension type ${ref.type}`;
  }
}
