// The per-message headers of MCP's Streamable HTTP transport, as the official SDK client sends them: the
// 2025 handshake's negotiated version and session id, or a 2026-07-28 request's own envelope claim
// (`Mcp-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, which the server cross-checks with the body).
// Pure: no I/O. Tools' `x-mcp-header` parameters (`Mcp-Param-*`) are not derived (kbctx's tools declare none).

const PROTOCOL_VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';
const NAME_SOURCE: Readonly<Record<string, string>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/** What the bridge learned from the 2025 handshake (both absent before it, or for 2026-07-28 clients). */
export interface SessionState {
  protocolVersion?: string;
  sessionId?: string;
}

export type JsonRpcMessage = Record<string, unknown>;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Headers for POSTing `message` (one JSON-RPC message or a batch). */
export function requestHeaders(
  message: unknown,
  session: SessionState,
  token: string | undefined,
): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  if (token) headers['authorization'] = `Bearer ${token}`;
  if (session.sessionId) headers['mcp-session-id'] = session.sessionId;
  if (session.protocolVersion) headers['mcp-protocol-version'] = session.protocolVersion;
  if (!isObject(message) || typeof message['method'] !== 'string' || message['id'] === undefined) return headers;
  const params = isObject(message['params']) ? message['params'] : undefined;
  const claim = isObject(params?.['_meta']) ? params['_meta'][PROTOCOL_VERSION_META_KEY] : undefined;
  if (typeof claim !== 'string') return headers;
  headers['mcp-protocol-version'] = claim;
  headers['mcp-method'] = message['method'];
  const field = Object.hasOwn(NAME_SOURCE, message['method']) ? NAME_SOURCE[message['method']] : undefined;
  const name = field === undefined ? undefined : params?.[field];
  if (typeof name === 'string') headers['mcp-name'] = encodeFieldValue(name);
  return headers;
}

/** A plain printable-ASCII value as is; anything else as `=?base64?…?=` (the spec's header value encoding). */
export function encodeFieldValue(value: string): string {
  const plain =
    value.length > 0 &&
    value === value.trim() &&
    !(value.startsWith('=?base64?') && value.endsWith('?=')) &&
    /^[\t\x20-\x7e]*$/.test(value);
  return plain ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}
