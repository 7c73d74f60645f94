// `lore tool init|test|list`: scaffold a script tool, run one (metadata + result), list all tools.
import path from 'node:path';
import type { Command } from 'commander';
import { toolsToWire } from '../../app/wire.ts';
import { notFound } from '../../core/errors.ts';
import { toJsonSchema, validateParams, type ParamSpec } from '../../core/tools/param-spec.ts';
import type { ScriptConfig } from '../../config/types.ts';
import { scaffoldScript } from '../../scripting/scaffold.ts';
import type { CliContext } from '../context.ts';
import { collect, parseKeyValues } from '../key-values.ts';
import { printScaffold, reportLoadFailures } from './script-output.ts';

export function registerTool(program: Command, ctx: CliContext): void {
  const tool = program.command('tool').description('Lua script tools: scaffold, test, list');
  tool
    .command('init')
    .description('write a commented script tool template to tools/<name>.lua')
    .argument('<name>', 'tool name')
    .action((name: string) => printScaffold(ctx, scaffoldScript('tool', name, ctx.io.cwd), `lore tool test tools/${name}.lua`));
  tool
    .command('test')
    .description('run a script tool once: prints its name, version, description, parameters and result')
    .argument('<path>', 'the .lua file')
    .option('--param <key=value>', 'a parameter (repeatable; JSON values allowed)', collect, [])
    .option('--source <name>', 'use the [tools.script.<name>] config section (timeout, extra keys)')
    .action(async (file: string, opts: { param: string[]; source?: string }) => {
      const lore = ctx.lore();
      const section = opts.source === undefined ? undefined : lore.config.tools.script[opts.source];
      if (opts.source !== undefined && !section) throw notFound(`[tools.script.${opts.source}] is not configured`);
      const config: ScriptConfig = { timeoutSecs: section?.timeoutSecs ?? 30, extra: section?.extra ?? {}, path: path.resolve(ctx.io.cwd, file) };
      const name = opts.source ?? path.basename(file, '.lua');
      const loaded = await (await lore.scripts()).tool(name, config);
      const stringParams = new Set(loaded.params.filter((p) => p.type === 'string').map((p) => p.name));
      const params = validateParams(loaded.params, parseKeyValues(opts.param, stringParams));
      const result = await loaded.run(params, {});
      const meta = { name: loaded.meta.name ?? name, version: loaded.meta.version ?? null, description: loaded.description };
      if (ctx.json) return ctx.printJson({ ...meta, parameters: toJsonSchema(loaded.params), result });
      ctx.io.out(`Name:        ${meta.name}\nVersion:     ${meta.version ?? '-'}\nDescription: ${meta.description}\nParameters:\n${formatParams(loaded.params)}`);
      ctx.io.out(`Result:\n${JSON.stringify(result, null, 2)}\n`);
    });
  tool
    .command('list')
    .description('list built-in and script tools with their parameter schemas')
    .action(async () => {
      const lore = ctx.lore();
      reportLoadFailures(ctx, await lore.loadScripts());
      const tools = lore.tools().list();
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
