// Script tools and agents (`[tools.script.*]`, `[agents.script.*]`): read in the sandbox when the
// kernel boots, then handed to the `tools` and `agents` collectors. A broken script is reported to the
// host and left out; a part using an unset `${VAR}` is kept and fails when it runs.
import type { PluginAgentDef, PluginToolDef } from '../../core/api/plugin.ts';
import { guardAgent, guardTool } from './part-guards.ts';
import type { ScriptingHost } from './scripting/scripting-service.ts';
import type { Agent } from '../agents-inline/api.ts';
import type { Tool } from '../tool-registry/api.ts';

export interface ScriptParts {
  tools: PluginToolDef[];
  agents: PluginAgentDef[];
}

export async function loadScriptParts(host: ScriptingHost): Promise<ScriptParts> {
  const scripting = await host.open();
  const tools = await scripting.loadAll<Tool>('tool', host.tools);
  const agents = await scripting.loadAll<Agent>('agent', host.agents);
  host.reportFailures([...tools.failures, ...agents.failures]);
  return {
    tools: tools.loaded.map((t) => toToolDef(guardTool(t, host.check(`tools.script.${t.name}`)))),
    agents: agents.loaded.map((a) =>
      toAgentDef(guardAgent(a, host.check(`agents.script.${a.name}`)), host.agents[a.name]?.timeoutSecs),
    ),
  };
}

/** `params` without `timeout`: the kernel runs it as it is (the sandbox keeps the script's own time-out). */
function toToolDef(tool: Tool): PluginToolDef {
  return {
    name: tool.name,
    description: tool.description,
    params: tool.params,
    readOnly: tool.readOnly,
    source: 'script',
    call: (params, ctx) => tool.run(params, { signal: ctx.signal }),
  };
}

function toAgentDef(agent: Agent, timeout: number | undefined): PluginAgentDef {
  return {
    name: agent.name,
    description: agent.description,
    tools: [...agent.tools],
    arguments: agent.arguments.map((a) => ({ ...a })),
    source: agent.source,
    ...(timeout === undefined ? {} : { timeout }),
    resolve: (args, ctx) => agent.resolve(args, { signal: ctx.signal }),
  };
}
