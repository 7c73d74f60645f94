// Resource-not-found on the 2025 revisions: their spec gives -32002, but the SDK (v2) sends -32602 on
// every revision (the 2026-07-28 rule). This wraps a server's transport so the resource-not-found
// responses (with `data.uri`) of requests marked here leave as -32002; 2026-07-28 responses are untouched.
import type { JSONRPCMessage, Server, Transport } from '@modelcontextprotocol/server';

export const RESOURCE_NOT_FOUND_2025 = -32002;

/** Call `mark(id)` from a 2025-era handler about to throw a resource miss. */
export function legacyResourceNotFound(server: Server): { mark(id: string | number): void } {
  const marked = new Set<string | number>();
  const connect = server.connect.bind(server);
  server.connect = (transport: Transport) => {
    const send = transport.send.bind(transport);
    transport.send = (message: JSONRPCMessage, options) => send(rewrite(message, marked), options);
    return connect(transport);
  };
  return { mark: (id) => void marked.add(id) };
}

function rewrite(message: JSONRPCMessage, marked: Set<string | number>): JSONRPCMessage {
  if (!('error' in message) || message.id === undefined || !marked.delete(message.id)) return message;
  // Only resource misses (ResourceNotFoundError carries data.uri); other failures of the request keep their code.
  if ((message.error.data as { uri?: unknown } | undefined)?.uri === undefined) return message;
  return { ...message, error: { ...message.error, code: RESOURCE_NOT_FOUND_2025 } };
}
