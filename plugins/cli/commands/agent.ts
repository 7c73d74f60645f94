// `kbctx agent list|test`: list agents, resolve one prompt and print it (by name, or a Lua agent's path);
// the Lua bridge adds `agent init`.
import type { Command } from 'commander';
import { agentsOf, agentsToWire } from '../../agents-inline/api.ts';
import { KbctxError } from '../../../core/api/plugin.ts';
import { resolveAgentTarget } from '../agent-target.ts';
import type { CliContext } from '../context.ts';
import { collect, parseKeyValues } from '../api.ts';
import { reportLoadFailures } from '../report-load-failures.ts';

export function registerAgent(program: Command, ctx: CliContext): void {
  const agent = program.command('agent').description('agents (inline and Lua): list, test, scaffold');
  agent
    .command('list')
    .description('list agents: description, tools and source (toml or lua)')
    .action(async () => {
      const kbctx = ctx.kbctx();
      reportLoadFailures(ctx, await kbctx.ready());
      const agents = agentsOf(kbctx.kernel).list();
      if (ctx.json) {
        return ctx.printJson(agentsToWire(agents));
      }
      if (agents.length === 0)
        return ctx.io.out('No agents configured. Add [agents.inline.<name>] or run `kbctx agent init <name>`.\n');
      for (const a of agents) {
        ctx.io.out(`${a.name} (${a.source})\n  ${a.description}\n  tools: ${a.tools.join(', ') || '-'}\n`);
        for (const arg of a.arguments)
          ctx.io.out(`  - argument ${arg.name}${arg.required ? ' (required)' : ''}: ${arg.description}\n`);
      }
    });
  agent
    .command('test')
    .description('resolve an agent prompt and print its source, tools, system prompt and messages')
    .argument('<name|path>', 'agent name, or the path of a Lua agent script (configured or not yet)')
    .option('--arg <key=value>', 'an argument (repeatable; JSON values allowed)', collect, [])
    .action(async (arg: string, opts: { arg: string[] }) => {
      const target = resolveAgentTarget(ctx.config(), arg, ctx.io.cwd);
      if (target.config !== ctx.config()) await ctx.useConfig(target.config);
      const { name } = target;
      const kbctx = ctx.kbctx();
      const failure = (await kbctx.ready()).find((f) => f.label === `agent:${name}`);
      if (failure) throw new KbctxError('script_error', failure.message);
      const registry = agentsOf(kbctx.kernel);
      const source = withListHint(() => registry.get(name)).source;
      const prompt = await registry.resolve(name, parseKeyValues(opts.arg));
      if (ctx.json) return ctx.printJson({ name, source, ...prompt });
      ctx.io.out(`Agent:  ${name}\nSource: ${source}\nTools:  ${prompt.tools.join(', ') || '-'}\n`);
      ctx.io.out(`System prompt (${prompt.system.length} characters):\n${prompt.system}\n`);
      const message = (m: (typeof prompt.messages)[number]): string =>
        `  [${m.role}] ${typeof m.content === 'string' ? m.content : JSON.stringify(m.content)}\n`;
      ctx.io.out(`Messages (${prompt.messages.length}):\n${prompt.messages.map(message).join('')}`);
    });
}

/** The registry's not_found (which lists the agents) plus where to look them up from the command line. */
function withListHint<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof KbctxError && error.code === 'not_found')
      throw new KbctxError('not_found', `${error.message} (see \`kbctx agent list\`)`);
    throw error;
  }
}
