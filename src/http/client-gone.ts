// A client that disconnects before its answer is not a server fault (issue 10, defect 5): such
// failures are recognised here and logged at debug level only, never as internal errors.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The client closed the connection while its request was being read or answered. */
export class ClientGoneError extends Error {
  constructor() {
    super('the client closed the connection');
    this.name = 'ClientGoneError';
  }
}

const GONE_CODES = new Set(['ECONNRESET', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE', 'ERR_STREAM_DESTROYED', 'ABORT_ERR']);

/** True when `error` is the fallout of the client going away rather than a fault of ours. */
export function isClientGone(error: unknown, req: IncomingMessage, res: ServerResponse): boolean {
  if (error instanceof ClientGoneError) return true;
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const aborted = (error as Error | null)?.message === 'aborted' || (error as Error | null)?.name === 'AbortError';
  const closedEarly = res.destroyed && !res.writableFinished;
  return closedEarly && (aborted || (code !== undefined && GONE_CODES.has(code)) || req.destroyed);
}
