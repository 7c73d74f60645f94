// Wraps a script tool or agent so it fails when it runs, not when it is loaded: used for parts whose config needs
// something missing (an unset `${VAR}`), so every other part keeps working (the host guards connectors alike).
import type { PartCheck } from '../../core/api/plugin.ts';
import type { Agent } from '../agents-inline/api.ts';
import type { Tool } from '../tool-registry/api.ts';

export function guardTool(tool: Tool, check: PartCheck | undefined): Tool {
  if (!check) return tool;
  return {
    ...tool,
    run: (params, ctx) =>
      Promise.resolve()
        .then(check)
        .then(() => tool.run(params, ctx)),
  };
}

export function guardAgent(agent: Agent, check: PartCheck | undefined): Agent {
  if (!check) return agent;
  return {
    ...agent,
    resolve: (args, ctx) =>
      Promise.resolve()
        .then(check)
        .then(() => agent.resolve(args, ctx)),
  };
}
