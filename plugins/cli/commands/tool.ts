// `kbctx tool call|list`: call any tool, list all (the Lua bridge adds `tool init|test`).
import type { Command } from 'commander';
import { toolsOf, toolsToWire } from '../../tool-registry/api.ts';
import type { CliContext } from '../context.ts';
import { collect, parseKeyValues } from '../api.ts';
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
      reportLoadFailures(ctx, await kbctx.ready());
      const registry = toolsOf(kbctx.kernel);
      const stringParams = new Set(
        registry.has(name)
          ? registry
              .get(name)
              .params.filter((p) => p.type === 'string')
              .map((p) => p.name)
          : [],
      );
      const result = await registry.call(name, parseKeyValues(opts.param, stringParams));
      ctx.io.out(`${JSON.stringify(ctx.json ? { result } : result, null, 2)}\n`);
    });
  tool
    .command('list')
    .description('list every tool (built-in, plugin, extension, script) with its origin and parameters')
    .action(async () => {
      const kbctx = ctx.kbctx();
      reportLoadFailures(ctx, await kbctx.ready());
      const tools = toolsOf(kbctx.kernel).list();
      if (ctx.json) return ctx.printJson(toolsToWire(tools));
      for (const t of tools) {
        ctx.io.out(`${t.name} (${t.builtin ? 'built-in' : (t.origin ?? 'plugin')})\n  ${t.description}\n`);
        for (const [name, p] of Object.entries(t.parameters.properties ?? {})) {
          // A declared schema is the author's: any of these keywords may be missing or of another shape.
          const required =
            Array.isArray(t.parameters.required) && t.parameters.required.includes(name) ? ', required' : '';
          const oneOf = Array.isArray(p.enum) ? `, one of ${p.enum.map((v) => JSON.stringify(v)).join('|')}` : '';
          ctx.io.out(`  - ${name}: ${typeof p.type === 'string' ? p.type : 'any'}${required}${oneOf}\n`);
        }
      }
    });
}
