// `kbctx plugins [--verbose] [--json]`: every loaded plugin in load order, with its version, origin, how long its
// `apply` took and what it provides (derived from what it tapped and added: ADR 0180), fitted to the terminal's width
// (80 when not a terminal); `--verbose` adds the hooks each taps and lists everything it provides, wrapped; `--json`
// has it all.
import type { Command } from 'commander';
import type { CliContext } from '../context.ts';
import { formatTable } from '../table.ts';

export function registerPlugins(program: Command, ctx: CliContext): void {
  program
    .command('plugins')
    .description('list the loaded plugins: version, origin, what each provides (--verbose: and the hooks it taps)')
    .option('--verbose', 'every hook each plugin taps and everything it provides')
    .action(async (options: { verbose?: boolean }) => {
      const kbctx = ctx.kbctx();
      // `[extensions] modules` are plugins too (`extension:<name>`); one that fails to load is left out, with a
      // warning.
      for (const f of await kbctx.ready()) ctx.io.err(`warning: ${f.label} not loaded: ${f.message}\n`);
      const plugins = kbctx.kernel.plugins({ collect: true });
      for (const p of plugins)
        for (const entry of p.notProvided) ctx.io.err(`warning: ${notProvided(p.name, entry, p.provides)}\n`);
      if (ctx.json) {
        return ctx.printJson({
          plugins: plugins.map((p) => ({
            name: p.name,
            version: p.version,
            origin: p.origin,
            from: p.from,
            hooks: p.hooks,
            provides: p.provides,
            not_provided: p.notProvided,
            load_ms: Number(p.loadMs.toFixed(2)),
          })),
        });
      }
      const width = ctx.io.columns ?? 80;
      if (options.verbose) {
        return ctx.io.out(
          plugins
            .map((p) =>
              [
                `${p.name} ${p.version} (${p.origin}, ${p.loadMs.toFixed(1)} ms)`,
                wrapList('  hooks:    ', p.hooks, width),
                wrapList('  provides: ', p.provides, width),
              ].join('\n'),
            )
            .join('\n\n') + '\n',
        );
      }
      const rows = plugins.map((p) => [p.name, p.version, p.origin, p.loadMs.toFixed(1), p.provides.join(', ')]);
      ctx.io.out(formatTable(['Plugin', 'Version', 'Origin', 'Load ms', 'Provides'], rows, { width, shrink: 4 }));
      ctx.io.out('(--verbose or --json: the hooks each plugin taps, and all it provides)\n');
    });
}

/** A declared `provides` entry the plugin did not provide, with what it provides of that kind. */
function notProvided(plugin: string, entry: string, provides: readonly string[]): string {
  const kind = entry.slice(0, entry.indexOf(':') + 1);
  const same = provides.filter((p) => p.startsWith(kind));
  return (
    `plugin '${plugin}' declares '${entry}' in provides but does not provide it ` +
    `(${same.length > 0 ? `it provides ${same.join(', ')}` : `it provides no ${kind.slice(0, -1)}`})`
  );
}

/**
 * `label` then the items, comma-separated, on lines of at most `width` characters (an item longer than a line gets its
 * own).
 */
function wrapList(label: string, items: readonly string[], width: number): string {
  if (items.length === 0) return `${label}-`;
  const indent = ' '.repeat(label.length);
  const lines: string[] = [];
  let line = label;
  for (const [i, item] of items.entries()) {
    const text = i < items.length - 1 ? `${item},` : item;
    if (line.length > indent.length && line.length + 1 + text.length > width) {
      lines.push(line);
      line = indent + text;
    } else line += (line.length > indent.length ? ' ' : '') + text;
  }
  return [...lines, line].join('\n');
}
