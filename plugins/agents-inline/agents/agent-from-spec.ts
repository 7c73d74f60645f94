// An agent a plugin adds (`agents.add`; an extension's registerAgent through its adapter) as the registry's Agent:
// checked (script_error naming `registerAgent(name)` / `agents.add(name)`), `resolve` run under a deadline, its prompt
// checked (prompt.ts).
import { invalid, runWithDeadline, type PluginAgentDef, type PluginContext } from '../../../core/index.ts';
import { specHead } from '../../tool-registry/api.ts';
import { parsePrompt } from './prompt.ts';
import type { Agent, AgentArgument } from '../agent-types.ts';

/** What a plugin's def and the extensions plugin's adapter hand in (errors name it as `registerAgent(name)`). */
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

/** A plugin's `agents.add(def)`, its `resolve` given the plugin's own ctx. */
export function agentFromPlugin(
  def: PluginAgentDef,
  contextFor: (signal: AbortSignal) => PluginContext,
  defaultTimeoutSecs: number,
): Agent {
  if (typeof def?.resolve !== 'function')
    throw invalid(`agents.add(${JSON.stringify(def?.name)}): \`resolve\` must be a function`);
  const agent = agentFromSpec(
    { ...def, resolve: (args, { signal }) => def.resolve(args, contextFor(signal)) },
    defaultTimeoutSecs,
  );
  return { ...agent, description: def.description ?? `Plugin agent: ${def.name}`, source: def.source ?? agent.source };
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
