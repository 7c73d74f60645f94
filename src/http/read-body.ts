// Reads a request body into memory under a byte limit, for REST and `/mcp` alike: 413 from
// Content-Length before reading, and again while streaming (chunked bodies), without buffering more.
import type { IncomingMessage } from 'node:http';
import { KbctxError } from '../../core/domain/errors.ts';
import { ClientGoneError } from './client-gone.ts';

/**
 * Resolves to the whole body. Rejects with payload_too_large as soon as the limit is passed (the rest
 * is left unread: the caller answers 413 and closes the connection), or ClientGoneError when the
 * client disconnects mid-body.
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > maxBytes) return Promise.reject(tooLarge(maxBytes));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (error: Error | null): void => {
      req.off('data', onData).off('end', onEnd).off('error', onGone).off('close', onClose);
      if (error) {
        chunks.length = 0;
        req.pause();
        reject(error);
      } else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) finish(tooLarge(maxBytes));
      else chunks.push(chunk);
    };
    const onEnd = (): void => finish(null);
    const onGone = (): void => finish(new ClientGoneError());
    const onClose = (): void => {
      if (!req.complete) finish(new ClientGoneError());
    };
    req.on('data', onData).on('end', onEnd).on('error', onGone).on('close', onClose);
  });
}

const tooLarge = (maxBytes: number): KbctxError =>
  new KbctxError('payload_too_large', `request body is larger than ${maxBytes} bytes ([server].max_body_bytes)`);
