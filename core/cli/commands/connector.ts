// `kbctx connector init|test`: scaffold a script connector; run one and print its items, writing nothing.
import type { Command } from 'commander';
import { openScripts } from '../../app/compose.ts';
import { scaffoldScript } from '../../../plugins/lua-bridge/scripting/scaffold.ts';
import type { CliContext } from '../context.ts';
import { scriptSection } from '../script-section.ts';
import { printScaffold } from './script-output.ts';

export function registerConnector(program: Command, ctx: CliContext): void {
  const connector = program.command('connector').description('Lua script connectors: scaffold, test');
  connector
    .command('init')
    .description('write a commented script connector template to connectors/<name>.lua')
    .argument('<name>', 'connector name')
    .action((name: string) => printScaffold(ctx, scaffoldScript('connector', name, ctx.io.cwd), `kbctx connector test connectors/${name}.lua`));
  connector
    .command('test')
    .description("run a script connector's scan and print each item's source_id and title (writes nothing)")
    .argument('<path>', 'the .lua file')
    .option('--source <name>', 'use the [connectors.script.<name>] config section (timeout, extra keys; default: the section whose path is this file)')
    .action(async (file: string, opts: { source?: string }) => {
      const config = ctx.config();
      const { name, script } = scriptSection(config, 'connectors', file, opts.source, ctx.io.cwd);
      const scripts = await openScripts(config, ctx.io.env);
      try {
        const scan = await scripts.connector(name, script).scan({ checkpoint: null, full: true });
        const items = await Promise.all(scan.entries.map(async (e) => ({ entry: e, loaded: await e.load() })));
        const rows = items.flatMap(({ entry, loaded }) =>
          loaded.kind === 'item' ? [{ source_id: entry.sourceId, title: loaded.item.title ?? null, source_url: loaded.item.sourceUrl ?? null, updated_at: loaded.item.updatedAt ?? null }] : [],
        );
        if (ctx.json) return ctx.printJson({ items: rows, checkpoint: scan.checkpoint === null ? null : (JSON.parse(scan.checkpoint) as unknown), deleted: scan.deleted });
        for (const r of rows) ctx.io.out(`${r.source_id}\t${r.title ?? ''}\n`);
        ctx.io.out(`${rows.length} item(s)${scan.checkpoint === null ? '' : `, checkpoint ${scan.checkpoint}`}${scan.deleted.length ? `, ${scan.deleted.length} deleted` : ''}\n`);
      } finally {
        scripts.close();
      }
    });
}
