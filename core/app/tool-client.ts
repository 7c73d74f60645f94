// The client that called a tool, as the tool sees it: log messages and progress sent to it while the
// tool runs. Only MCP has a channel back (the mcp-server plugin's tool-client.ts builds one per `tools/call`); over
// REST and the CLI the tool gets NO_TOOL_CLIENT, whose calls do nothing.

/** MCP's log levels, least severe first (RFC 5424 names). */
export type ClientLogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

export interface ToolClient {
  /**
   * An MCP `notifications/message` to the calling client, sent only if its level lets it through:
   * the level of `logging/setLevel` (2025 revisions; stateless HTTP has no session to keep one, so
   * there every message goes), or the request's `_meta` logLevel (2026-07-28; none: nothing is sent,
   * SEP-2575). Resolves once sent or dropped; never rejects.
   */
  log(level: ClientLogLevel, data: unknown, logger?: string): Promise<void>;
  /**
   * An MCP `notifications/progress` for this call, sent only when the request carried a
   * `progressToken`. `progress` should grow with each call; `total` when known. Never rejects.
   */
  progress(progress: number, total?: number, message?: string): Promise<void>;
}

// Defined beside the tool registry, loaded at start-up anyway (one module fewer: ADR 0130).
export { NO_TOOL_CLIENT } from './tools.ts';
