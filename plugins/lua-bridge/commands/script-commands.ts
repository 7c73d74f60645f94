// The script commands the Lua bridge adds to `kbctx` (the `commands` hook): scaffold a script
// connector, tool or agent (`init`), run a script tool or connector once (`test`). `tool` and `agent`
// are the host's commands (list, call, test): these attach to them; `connector` is this plugin's own.
import type { Command } from 'commander';
import { collect, hostService, parseKeyValues, toJsonSchema, validateParams, type ParamSpec, type PluginKernel } from '../../../core/index.ts';
import type { ScriptingHost } from '../scripting/scripting-service.ts';
import type { Scripting } from '../scripting/scripting.ts';
import { scaffoldScript } from '../scripting/scaffold.ts';
import { outputOf, printScaffold } from './script-output.ts';
import { scriptSection } from './script-section.ts';

export interface ScriptRuntime extends ScriptingHost {
  openBare(): Promise<Scripting>;
}

/** The named top-level command, created when no other plugin (or the host) has. */
function parent(program: Command, name: string, description: string): Command {
  return program.commands.find((c) => c.name() === name) ?? program.command(name).description(description);
}

export function registerScriptCommands(program: Command, kernel: PluginKernel, runtime: ScriptRuntime): void {
  const output = outputOf(program);
  const cwd = (): string => process.cwd();
  const tool = parent(program, 'tool', 'tools: list, call, and Lua script tools');
  tool
    .command('init')
    .description('write a commented script tool template to tools/<name>.lua')
    .argument('<name>', 'tool name')
    .action((name: string) => printScaffold(output, scaffoldScript('tool', name, cwd()), `kbctx tool test tools/${name}.lua`));
  tool
    .command('test')
    .description('run a script tool once: prints its name, version, description, parameters and result')
    .argument('<path>', 'the .lua file')
    .option('--param <key=value>', 'a parameter (repeatable; JSON values allowed)', collect, [])
    .option('--source <name>', 'use the [tools.script.<name>] config section (timeout, extra keys; default: the section whose path is this file)')
    .action(async (file: string, opts: { param: string[]; source?: string }) => {
      const { name, script } = scriptSection(kernel.use(hostService), 'tools', file, opts.source, cwd());
      const loaded = await (await runtime.open()).tool(name, script);
      const stringParams = new Set(loaded.params.filter((p) => p.type === 'string').map((p) => p.name));
      const params = validateParams(loaded.params, parseKeyValues(opts.param, stringParams));
      const result = await loaded.run(params, {});
      const meta = { name: loaded.meta.name ?? name, version: loaded.meta.version ?? null, description: loaded.description };
      if (output.json) return output.printJson({ ...meta, parameters: toJsonSchema(loaded.params), result });
      output.out(`Name:        ${meta.name}\nVersion:     ${meta.version ?? '-'}\nDescription: ${meta.description}\nParameters:\n${formatParams(loaded.params)}`);
      output.out(`Result:\n${JSON.stringify(result, null, 2)}\n`);
    });
  parent(program, 'agent', 'agents (inline and Lua): list, test, scaffold')
    .command('init')
    .description('write a commented script agent template to agents/<name>.lua and print its config entry')
    .argument('<name>', 'agent name')
    .action((name: string) => printScaffold(output, scaffoldScript('agent', name, cwd()), `kbctx agent test ${name}`));
  const connector = parent(program, 'connector', 'Lua script connectors: scaffold, test');
  connector
    .command('init')
    .description('write a commented script connector template to connectors/<name>.lua')
    .argument('<name>', 'connector name')
    .action((name: string) => printScaffold(output, scaffoldScript('connector', name, cwd()), `kbctx connector test connectors/${name}.lua`));
  connector
    .command('test')
    .description("run a script connector's scan and print each item's source_id and title (writes nothing)")
    .argument('<path>', 'the .lua file')
    .option('--source <name>', 'use the [connectors.script.<name>] config section (timeout, extra keys; default: the section whose path is this file)')
    .action(async (file: string, opts: { source?: string }) => {
      const { name, script } = scriptSection(kernel.use(hostService), 'connectors', file, opts.source, cwd());
      const scripts = await runtime.openBare();
      try {
        const scan = await scripts.connector(name, script).scan({ checkpoint: null, full: true });
        const items = await Promise.all(scan.entries.map(async (e) => ({ entry: e, loaded: await e.load() })));
        const rows = items.flatMap(({ entry, loaded }) =>
          loaded.kind === 'item' ? [{ source_id: entry.sourceId, title: loaded.item.title ?? null, source_url: loaded.item.sourceUrl ?? null, updated_at: loaded.item.updatedAt ?? null }] : [],
        );
        if (output.json) return output.printJson({ items: rows, checkpoint: scan.checkpoint === null ? null : (JSON.parse(scan.checkpoint) as unknown), deleted: scan.deleted });
        for (const r of rows) output.out(`${r.source_id}\t${r.title ?? ''}\n`);
        output.out(`${rows.length} item(s)${scan.checkpoint === null ? '' : `, checkpoint ${scan.checkpoint}`}${scan.deleted.length ? `, ${scan.deleted.length} deleted` : ''}\n`);
      } finally {
        scripts.close();
      }
    });
}

function formatParams(params: readonly ParamSpec[]): string {
  if (params.length === 0) return '  (none)\n';
  return params
    .map((p) => {
      const extras = [p.required ? 'required' : 'optional', p.default !== undefined ? `default ${JSON.stringify(p.default)}` : '', p.enum ? `one of ${p.enum.map((v) => JSON.stringify(v)).join('|')}` : '']
        .filter(Boolean)
        .join(', ');
      return `  - ${p.name}: ${p.type} (${extras})${p.description ? ` ${p.description}` : ''}\n`;
    })
    .join('');
}
