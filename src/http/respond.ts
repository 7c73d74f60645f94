// Writing JSON responses, and the one place that turns a thrown error into an HTTP error response:
// KbctxError codes go through the error table; anything else is a 500 with an id, stack to the log.
import type { ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { isKbctxError } from '../../core/domain/errors.ts';
import { errorMapping } from '../../core/domain/error-table.ts';

export type Log = (line: string) => void;

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** `{error: {code, message}}` with the status from the error table (SPEC §4). */
export function sendError(res: ServerResponse, error: unknown, log: Log, extraHeaders: Record<string, string> = {}): void {
  let status: number;
  let body: { error: { code: string; message: string; id?: string } };
  if (isKbctxError(error)) {
    status = errorMapping(error.code).http;
    body = { error: { code: error.code, message: error.message } };
  } else {
    const id = randomUUID().slice(0, 8);
    log(`internal error ${id}: ${(error as Error)?.stack ?? String(error)}`);
    status = errorMapping('internal').http;
    body = { error: { code: 'internal', message: `internal error ${id}; see the server log`, id } };
  }
  if (res.headersSent) {
    res.destroy();
    return;
  }
  for (const [name, value] of Object.entries(extraHeaders)) res.setHeader(name, value);
  sendJson(res, status, body);
}
