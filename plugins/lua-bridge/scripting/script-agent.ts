// Script agents: a Lua file defining a global `agent` (description, tools, arguments,
// resolve(args, config, context)). Metadata is read once in the sandbox; each resolve runs fresh.
import { KbctxError, asArray, asString } from '../../../core/index.ts';
import { toScriptConfig } from './script-values.ts';
import { parsePrompt } from '../../agents-inline/api.ts';
import type { ContextHandler, ScriptRuntime } from './runtime/script-runtime.ts';
import { metaTimeoutSecs, type ScriptConfig } from '../api.ts';
import type { Agent, AgentArgument, ResolvedPrompt } from '../../agents-inline/api.ts';

export async function loadScriptAgent(
  runtime: ScriptRuntime,
  name: string,
  config: ScriptConfig,
  context: ContextHandler,
): Promise<Agent> {
  const label = `agent:${name}`;
  const base = { label, scriptPath: config.path, config: toScriptConfig(config.extra) };
  const meta = (await runtime.run(
    { ...base, kind: 'agent.meta', input: {} },
    { timeoutSecs: metaTimeoutSecs(config), context },
  )) as Record<string, unknown>;
  const description = asString(meta['description']);
  const tools = asArray(meta['tools'], `${label}: agent.tools`).map(String);
  return {
    name,
    description: description && description.trim() !== '' ? description : `Lua agent: ${name}`,
    tools,
    source: 'lua',
    arguments: asArray(meta['arguments'], `${label}: agent.arguments`).map((a, i) =>
      parseArgument(a, `${label}: agent.arguments[${i + 1}]`),
    ),
    async resolve(args, ctx): Promise<ResolvedPrompt> {
      const out = (await runtime.run(
        { ...base, kind: 'agent.resolve', input: args },
        { timeoutSecs: config.timeoutSecs, context, signal: ctx.signal },
      )) as {
        prompt: Record<string, unknown>;
      };
      return parsePrompt(out.prompt, tools, label);
    },
  };
}

function parseArgument(raw: unknown, where: string): AgentArgument {
  const a = (raw ?? {}) as Record<string, unknown>;
  if (typeof a['name'] !== 'string' || a['name'] === '')
    throw new KbctxError('script_error', `${where}: needs a \`name\` (string)`);
  return { name: a['name'], description: asString(a['description']) ?? '', required: a['required'] === true };
}
