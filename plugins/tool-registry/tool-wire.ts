import type { ToolInfo } from './registry-types.ts';
// The tool registry's listing in the contract's JSON names (`GET /tools/list`, `kbctx tool list --json`): REST and the
// CLI serialise through it, so the names cannot drift. Light (types only): the contract entry re-exports it.

/** `GET /tools/list` and `kbctx tool list --json`. */
export function toolsToWire(tools: readonly ToolInfo[]): { tools: Record<string, unknown>[] } {
  return {
    tools: tools.map((t) => ({
      name: t.name,
      description: t.description,
      builtin: t.builtin,
      parameters: t.parameters,
    })),
  };
}
