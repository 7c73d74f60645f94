// `kbctx plugins [--json]`: every loaded plugin in load order, with its version, origin, the hooks it
// taps, what it provides and how long its `apply` took.
import type { Command } from 'commander';
import type { CliContext } from '../context.ts';
import { formatTable } from '../table.ts';

export function registerPlugins(program: Command, ctx: CliContext): void {
  program
    .command('plugins')
    .description('list the loaded plugins: version, origin, hooks tapped, what each provides')
    .action(async () => {
      const kbctx = ctx.kbctx();
      // `[extensions] modules` are plugins too (`extension:<name>`); one that fails to load is left out, with a warning.
      for (const f of await kbctx.loadExtensions()) ctx.io.err(`warning: ${f.label} not loaded: ${f.message}\n`);
      const plugins = kbctx.kernel.plugins();
      if (ctx.json) {
        return ctx.printJson({ plugins: plugins.map((p) => ({ name: p.name, version: p.version, origin: p.origin, from: p.from, hooks: p.hooks, provides: p.provides, load_ms: Number(p.loadMs.toFixed(2)) })) });
      }
      ctx.io.out(formatTable(['Plugin', 'Version', 'Origin', 'Hooks', 'Provides', 'Load ms'], plugins.map((p) => [p.name, p.version, p.origin, p.hooks.join(', '), p.provides.join(', '), p.loadMs.toFixed(1)])));
    });
}
