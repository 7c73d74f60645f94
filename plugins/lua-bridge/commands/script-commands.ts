// The script commands the Lua bridge adds to `kbctx` (the `commands` hook): scaffold a script
// connector, tool or agent (`init`), run a script tool or connector once (`test`). `tool` and `agent`
// are the host's commands (list, call, test): these attach to them; `connector` is this plugin's own.
// Loaded with the plugin: what the actions need is imported when one runs.
import type { Command } from 'commander';
import { hostService, type ParamSpec, type PluginKernel, type CliProgram } from '../../../core/index.ts';
import { toJsonSchema, validateParams } from '../../tool-registry/api.ts';
import { collect, parseKeyValues } from '../../cli/api.ts';
import type { ScriptingHost } from '../scripting/scripting-service.ts';
import type { Scripting } from '../scripting/scripting.ts';
import type { ScaffoldKind } from '../scripting/scaffold.ts';
import type { ScriptConfig } from '../api.ts';

export interface ScriptRuntime extends ScriptingHost {
  openBare(): Promise<Scripting>;
}

/** The named top-level command, created when no other plugin (or the host) has. */
function parent(program: Command, name: string, description: string): Command {
  return program.commands.find((c) => c.name() === name) ?? program.command(name).description(description);
}

const json = (program: Command): boolean => program.opts<{ json?: boolean }>().json === true;
const out = (text: string): void => void process.stdout.write(text);
const printJson = (value: unknown): void => out(`${JSON.stringify(value, null, 2)}\n`);

/** `<kind> init <name>`: the template, and how to configure and test it. */
async function scaffold(program: Command, kind: ScaffoldKind, name: string, testCommand: string): Promise<void> {
  const { scaffoldScript } = await import('../scripting/scaffold.ts');
  const made = scaffoldScript(kind, name, process.cwd());
  if (json(program)) return printJson({ path: made.relative, config_entry: made.configEntry, test: testCommand });
  out(
    `Created ${made.relative}\n\nAdd to your config (config/kbctx.toml):\n` +
      `\n${made.configEntry}\nThen try it: ${testCommand}\n`,
  );
}

/** The config section a `test` run uses (the module checks the script file first). */
async function section(
  kernel: PluginKernel,
  kind: 'tools' | 'connectors',
  file: string,
  source: string | undefined,
): Promise<{ name: string; script: ScriptConfig }> {
  return (await import('./script-section.ts')).scriptSection(
    kernel.use(hostService),
    kind,
    file,
    source,
    process.cwd(),
  );
}

export function registerScriptCommands(cli: CliProgram, kernel: PluginKernel, runtime: ScriptRuntime): void {
  const program = cli as unknown as Command; // commander's Command at run time (core's CliProgram is its shape)

  const tool = parent(program, 'tool', 'tools: list, call, and Lua script tools');
  tool
    .command('init')
    .description('write a commented script tool template to tools/<name>.lua')
    .argument('<name>', 'tool name')
    .action((name: string) => scaffold(program, 'tool', name, `kbctx tool test tools/${name}.lua`));
  tool
    .command('test')
    .description('run a script tool once: prints its name, version, description, parameters and result')
    .argument('<path>', 'the .lua file')
    .option('--param <key=value>', 'a parameter (repeatable; JSON values allowed)', collect, [])
    .option(
      '--source <name>',
      'use the [tools.script.<name>] config section (timeout, ' +
        'extra keys; default: the section whose path is this file)',
    )
    .action(async (file: string, opts: { param: string[]; source?: string }) => {
      const { name, script } = await section(kernel, 'tools', file, opts.source);
      const loaded = await (await runtime.open()).tool(name, script);
      const stringParams = new Set(loaded.params.filter((p) => p.type === 'string').map((p) => p.name));
      const params = validateParams(loaded.params, parseKeyValues(opts.param, stringParams));
      const result = await loaded.run(params, {});
      const meta = {
        name: loaded.meta.name ?? name,
        version: loaded.meta.version ?? null,
        description: loaded.description,
      };
      if (json(program)) return printJson({ ...meta, parameters: toJsonSchema(loaded.params), result });
      out(
        `Name:        ${meta.name}\nVersion:     ${meta.version ?? '-'}\nDescription: ${meta.description}\n` +
          `Parameters:\n${formatParams(loaded.params)}`,
      );
      out(`Result:\n${JSON.stringify(result, null, 2)}\n`);
    });
  parent(program, 'agent', 'agents (inline and Lua): list, test, scaffold')
    .command('init')
    .description('write a commented script agent template to agents/<name>.lua and print its config entry')
    .argument('<name>', 'agent name')
    .action((name: string) => scaffold(program, 'agent', name, `kbctx agent test agents/${name}.lua`));
  const connector = parent(program, 'connector', 'Lua script connectors: scaffold, test');
  connector
    .command('init')
    .description('write a commented script connector template to connectors/<name>.lua')
    .argument('<name>', 'connector name')
    .action((name: string) => scaffold(program, 'connector', name, `kbctx connector test connectors/${name}.lua`));
  connector
    .command('test')
    .description("run a script connector's scan and print each item's source_id and title (writes nothing)")
    .argument('<path>', 'the .lua file')
    .option(
      '--source <name>',
      'use the [connectors.script.<name>] config section (timeout, ' +
        'extra keys; default: the section whose path is this file)',
    )
    .action(async (file: string, opts: { source?: string }) => {
      const { name, script } = await section(kernel, 'connectors', file, opts.source);
      const scripts = await runtime.openBare();
      try {
        const scan = await scripts.connector(name, script).scan({ checkpoint: null, full: true });
        const items = await Promise.all(scan.entries.map(async (e) => ({ entry: e, loaded: await e.load() })));
        const rows = items.flatMap(({ entry, loaded }) =>
          loaded.kind === 'item'
            ? [
                {
                  source_id: entry.sourceId,
                  title: loaded.item.title ?? null,
                  source_url: loaded.item.sourceUrl ?? null,
                  updated_at: loaded.item.updatedAt ?? null,
                },
              ]
            : [],
        );
        if (json(program))
          return printJson({
            items: rows,
            checkpoint: scan.checkpoint === null ? null : (JSON.parse(scan.checkpoint) as unknown),
            deleted: scan.deleted,
          });
        for (const r of rows) out(`${r.source_id}\t${r.title ?? ''}\n`);
        out(
          `${rows.length} item(s)${scan.checkpoint === null ? '' : `, checkpoint ${scan.checkpoint}`}` +
            `${scan.deleted.length ? `, ${scan.deleted.length} deleted` : ''}\n`,
        );
      } finally {
        await scripts.close();
      }
    });
}

function formatParams(params: readonly ParamSpec[]): string {
  if (params.length === 0) return '  (none)\n';
  return params
    .map((p) => {
      const extras = [
        p.required ? 'required' : 'optional',
        p.default !== undefined ? `default ${JSON.stringify(p.default)}` : '',
        p.enum ? `one of ${p.enum.map((v) => JSON.stringify(v)).join('|')}` : '',
      ]
        .filter(Boolean)
        .join(', ');
      return `  - ${p.name}: ${p.type} (${extras})${p.description ? ` ${p.description}` : ''}\n`;
    })
    .join('');
}
