// Reads a request body as JSON for the REST surface: 415 unless the content type is JSON (an empty
// body is allowed without one), 413 beyond the configured size, 400 for malformed JSON.
import type { IncomingMessage } from 'node:http';
import { LoreError, badRequest } from '../core/errors.ts';

/** Resolves to the parsed body, or `{}` when the body is empty. */
export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw tooLarge(maxBytes);
    chunks.push(chunk);
  }
  if (size === 0) return {};
  if (!isJsonContentType(req.headers['content-type'])) {
    throw new LoreError('unsupported_media_type', `request bodies must be JSON (Content-Type: application/json), got ${req.headers['content-type'] ?? 'no Content-Type'}`);
  }
  const text = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw badRequest(`malformed JSON body: ${(error as Error).message}`);
  }
}

export function isJsonContentType(header: string | undefined): boolean {
  if (!header) return false;
  const media = header.split(';', 1)[0]!.trim().toLowerCase();
  return media === 'application/json' || (media.startsWith('application/') && media.endsWith('+json'));
}

const tooLarge = (maxBytes: number): LoreError =>
  new LoreError('payload_too_large', `request body is larger than ${maxBytes} bytes ([server].max_body_bytes)`);
