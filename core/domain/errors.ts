// The one error family of kbctx. Every failure a user can cause or see carries a stable `code`;
// surfaces map codes through ERROR_TABLE and never read messages to pick a status.

// The single table from error code to HTTP status, MCP JSON-RPC error code and CLI exit code.
// Add a code here and every surface knows how to report it.
export const ERROR_TABLE = {
  bad_request: { http: 400, mcp: -32602, exit: 2 },
  usage: { http: 400, mcp: -32602, exit: 2 },
  embeddings_not_configured: { http: 400, mcp: -32602, exit: 3 },
  unauthorized: { http: 401, mcp: -32600, exit: 1 },
  forbidden: { http: 403, mcp: -32600, exit: 1 },
  not_found: { http: 404, mcp: -32002, exit: 4 },
  method_not_allowed: { http: 405, mcp: -32601, exit: 2 },
  timeout: { http: 408, mcp: -32603, exit: 5 },
  conflict: { http: 409, mcp: -32603, exit: 7 },
  payload_too_large: { http: 413, mcp: -32600, exit: 2 },
  // -32005: "limit exceeded", as JSON-RPC APIs commonly spell it (MCP reserves no code for it).
  too_many_requests: { http: 429, mcp: -32005, exit: 1 },
  // A token over its `max_concurrent` / `requests_per_minute` (ADR 0224); the HTTP answer carries Retry-After.
  rate_limited: { http: 429, mcp: -32005, exit: 1 },
  unsupported_media_type: { http: 415, mcp: -32600, exit: 2 },
  config_error: { http: 500, mcp: -32603, exit: 3 },
  script_error: { http: 500, mcp: -32603, exit: 1 },
  connector_error: { http: 502, mcp: -32603, exit: 1 },
  upstream_error: { http: 502, mcp: -32603, exit: 1 },
  unavailable: { http: 503, mcp: -32603, exit: 6 },
  plugin_error: { http: 500, mcp: -32603, exit: 1 },
  internal: { http: 500, mcp: -32603, exit: 1 },
} as const satisfies Record<string, { http: number; mcp: number; exit: number }>;

export type ErrorCode = keyof typeof ERROR_TABLE;

export const errorMapping = (code: ErrorCode): { http: number; mcp: number; exit: number } => ERROR_TABLE[code];

export class KbctxError extends Error {
  readonly code: ErrorCode;
  /** Extra machine-readable context (e.g. the offending parameter), safe to show to clients. */
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown; details?: Record<string, unknown> }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'KbctxError';
    this.code = code;
    this.details = options?.details;
  }
}

export const badRequest = (message: string, details?: Record<string, unknown>): KbctxError =>
  new KbctxError('bad_request', message, details ? { details } : undefined);

export const notFound = (message: string): KbctxError => new KbctxError('not_found', message);

export const configError = (message: string, cause?: unknown): KbctxError =>
  new KbctxError('config_error', message, cause === undefined ? undefined : { cause });

export const isKbctxError = (value: unknown): value is KbctxError => value instanceof KbctxError;
