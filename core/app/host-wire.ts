// The host's own answers in the contract's JSON names: the tool and agent registries' listings and a connector's sync
// report (the built-in tools' answers, sources and stats are tools-builtin's wire.ts). Every surface serialises
// through these, so field names cannot drift between REST, MCP and the CLI.
import type { Agent } from './agents.ts';
import type { SyncReport } from './sync.ts';
import type { ToolInfo } from '../tools/tool-types.ts';

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

/** One connector's sync outcome, as `kbctx sync --json` prints it and the library's `sync()` returns it. */
export function syncReportToWire(r: SyncReport): Record<string, unknown> {
  return {
    connector: r.connector,
    fetched: r.fetched,
    upserted: r.upserted,
    chunks_written: r.chunksWritten,
    deleted: r.deleted,
    unchanged: r.unchanged,
    skipped: r.skipped,
    errors: r.errors,
    notes: r.notes,
    failure: r.failure,
    duration_ms: Math.round(r.durationMs),
  };
}
