import type { Agent } from './agent-types.ts';
// The agent registry's listing in the contract's JSON names (`GET /agents/list`, `kbctx agent list --json`): REST and
// the CLI serialise through it, so the names cannot drift. Light (types only): the contract entry re-exports it.

/** `GET /agents/list` and `kbctx agent list --json`. */
export function agentsToWire(agents: readonly Agent[]): { agents: Record<string, unknown>[] } {
  return {
    agents: agents.map((a) => ({
      name: a.name,
      description: a.description,
      tools: [...a.tools],
      source: a.source,
      arguments: a.arguments.map((x) => ({ name: x.name, description: x.description, required: x.required })),
    })),
  };
}
