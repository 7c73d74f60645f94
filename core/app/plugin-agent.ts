// An agent a plugin adds (`agents.add`; an extension's registerAgent through its adapter) as the app's
// Agent: arguments checked by AgentRegistry, `resolve` run with a deadline, its prompt checked.
import type { Agent, AgentArgument } from './agents.ts';
import { parsePrompt } from './part-values/prompt.ts';
import { invalid, specHead } from './plugin-tool.ts';
import { runWithDeadline } from './run-with-deadline.ts';

/** What plugin-parts.ts and the extensions plugin's adapter hand in (errors name it as `registerAgent(name)`). */
export interface AgentSpec {
  name: string;
  description?: string | undefined;
  tools?: string[] | undefined;
  arguments?: { name: string; description?: string; required?: boolean }[] | undefined;
  timeout?: number | undefined;
  resolve(args: Record<string, unknown>, ctx: { signal: AbortSignal }): unknown;
}

export function agentFromSpec(def: AgentSpec, defaultTimeoutSecs: number): Agent {
  const { where, label, timeoutSecs, description } = specHead(def, 'agent', 'resolve', defaultTimeoutSecs);
  if (def.tools !== undefined && !(Array.isArray(def.tools) && def.tools.every((t) => typeof t === 'string')))
    throw invalid(`${where}: \`tools\` must be a list of tool names`);
  const tools = [...(def.tools ?? [])];
  return {
    name: def.name,
    description,
    tools,
    source: 'extension',
    arguments: (def.arguments ?? []).map((a, i) => toArgument(a, `${where}: arguments[${i}]`)),
    resolve: (args, ctx) =>
      runWithDeadline(label, timeoutSecs, ctx.signal, async (signal) => {
        const prompt = await def.resolve(args, { signal });
        if (prompt === null || typeof prompt !== 'object')
          throw invalid(`${label}: resolve must return {system, tools?, messages?}`);
        return parsePrompt(prompt as unknown as Record<string, unknown>, tools, label, { blocks: true });
      }),
  };
}

function toArgument(raw: unknown, where: string): AgentArgument {
  const a = (raw ?? {}) as Record<string, unknown>;
  if (typeof a['name'] !== 'string' || a['name'] === '') throw invalid(`${where}: needs a \`name\` (string)`);
  return {
    name: a['name'],
    description: typeof a['description'] === 'string' ? a['description'] : '',
    required: a['required'] === true,
  };
}
