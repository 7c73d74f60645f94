// Wraps a tool, agent or connector so it fails when it runs, not when it is loaded: used for parts
// whose config needs something missing (an unset `${VAR}`), so every other part keeps working.
import type { Connector } from '../connectors/connector.ts';
import type { Agent } from './agents.ts';
import type { Tool } from './tools.ts';

/**
 * `check` (absent: nothing is missing, the part is returned as it is) throws the part's error (a KbctxError naming what
 * is missing) or returns when all is well.
 */
export type PartCheck = () => void;

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

export function guardConnector(connector: Connector, check: PartCheck | undefined): Connector {
  if (!check) return connector;
  const { probe, watchTarget } = connector;
  return {
    label: connector.label,
    type: connector.type,
    scan: (options) =>
      Promise.resolve()
        .then(check)
        .then(() => connector.scan(options)),
    ...(probe
      ? {
          probe: () =>
            Promise.resolve()
              .then(check)
              .then(() => probe.call(connector)),
        }
      : {}),
    ...(watchTarget ? { watchTarget: () => watchTarget.call(connector) } : {}),
  };
}
