// `kbctx tool call|list`: call any tool, list all (the Lua bridge adds `tool init|test`).
import type { Command } from 'commander';
import { toolsToWire } from '../../app/wire.ts';
import type { CliContext } from '../context.ts';
import { collect, parseKeyValues } from '../key-values.ts';
import { reportLoadFailures } from '../report-load-failures.ts';

export function registerTool(program: Command, ctx: CliContext): void {
  const tool = program.command('tool').description('tools: list, call, and Lua script tools');
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
