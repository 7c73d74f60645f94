// `kbctx tool init|test|call|list`: scaffold a script tool, run one (metadata + result), call any tool, list all.
import type { Command } from 'commander';
import { toolsToWire } from '../../app/wire.ts';
import { toJsonSchema, validateParams, type ParamSpec } from '../../tools/param-spec.ts';
import { scaffoldScript } from '../../../plugins/lua-bridge/scripting/scaffold.ts';
import type { CliContext } from '../context.ts';
import { collect, parseKeyValues } from '../key-values.ts';
import { scriptSection } from '../script-section.ts';
import { printScaffold, reportLoadFailures } from './script-output.ts';

export function registerTool(program: Command, ctx: CliContext): void {
  const tool = program.command('tool').description('Lua script tools: scaffold, test, list');
  tool
    .command('init')
    .description('write a commented script tool template to tools/<name>.lua')
    .argument('<name>', 'tool name')
    .action((name: string) => printScaffold(ctx, scaffoldScript('tool', name, ctx.io.cwd), `kbctx tool test tools/${name}.lua`));
  tool
    .command('test')
    .description('run a script tool once: prints its name, version, description, parameters and result')
    .argument('<path>', 'the .lua file')
    .option('--param <key=value>', 'a parameter (repeatable; JSON values allowed)', collect, [])
    .option('--source <name>', 'use the [tools.script.<name>] config section (timeout, extra keys; default: the section whose path is this file)')
    .action(async (file: string, opts: { param: string[]; source?: string }) => {
      const kbctx = ctx.kbctx();
      const { name, script } = scriptSection(kbctx.config, 'tools', file, opts.source, ctx.io.cwd);
      const loaded = await (await kbctx.scripts()).tool(name, script);
      const stringParams = new Set(loaded.params.filter((p) => p.type === 'string').map((p) => p.name));
      const params = validateParams(loaded.params, parseKeyValues(opts.param, stringParams));
      const result = await loaded.run(params, {});
      const meta = { name: loaded.meta.name ?? name, version: loaded.meta.version ?? null, description: loaded.description };
      if (ctx.json) return ctx.printJson({ ...meta, parameters: toJsonSchema(loaded.params), result });
      ctx.io.out(`Name:        ${meta.name}\nVersion:     ${meta.version ?? '-'}\nDescription: ${meta.description}\nParameters:\n${formatParams(loaded.params)}`);
      ctx.io.out(`Result:\n${JSON.stringify(result, null, 2)}\n`);
    });
  tool
    .command('call')
    .description('call any tool by name (built-in, plugin, extension or script) as REST and MCP do; prints its result')
    .argument('<name>', 'tool name (see `kbctx tool list`)')
    .option('--param <key=value>', 'a parameter (repeatable; JSON values allowed)', collect, [])
    .action(async (name: string, opts: { param: string[] }) => {
      const kbctx = ctx.kbctx();
      reportLoadFailures(ctx, await kbctx.loadScripts());
      const registry = kbctx.tools();
      const stringParams = new Set(registry.has(name) ? registry.get(name).params.filter((p) => p.type === 'string').map((p) => p.name) : []);
      const result = await registry.call(name, parseKeyValues(opts.param, stringParams));
      ctx.io.out(`${JSON.stringify(ctx.json ? { result } : result, null, 2)}\n`);
    });
  tool
    .command('list')
    .description('list built-in and script tools with their parameter schemas')
    .action(async () => {
      const kbctx = ctx.kbctx();
      reportLoadFailures(ctx, await kbctx.loadScripts());
      const tools = kbctx.tools().list();
      if (ctx.json) return ctx.printJson(toolsToWire(tools));
      for (const t of tools) {
        ctx.io.out(`${t.name} (${t.builtin ? 'built-in' : 'script'})\n  ${t.description}\n`);
        for (const [name, p] of Object.entries(t.parameters.properties)) {
          const required = t.parameters.required?.includes(name) ? ', required' : '';
          ctx.io.out(`  - ${name}: ${p.type}${required}${p.enum ? `, one of ${p.enum.map((v) => JSON.stringify(v)).join('|')}` : ''}\n`);
        }
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
