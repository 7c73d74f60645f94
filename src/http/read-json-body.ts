// Reads a request body as JSON for the REST surface: 415 unless the content type is JSON (an empty
// body is allowed without one), 413 beyond the configured size, 400 for malformed JSON.
import type { IncomingMessage } from 'node:http';
import { KbctxError, badRequest } from '../../core/domain/errors.ts';
import { readBody } from './read-body.ts';

/** Resolves to the parsed body, or `{}` when the body is empty. */
export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const bytes = await readBody(req, maxBytes);
  if (bytes.length === 0) return {};
  if (!isJsonContentType(req.headers['content-type'])) {
    throw new KbctxError('unsupported_media_type', `request bodies must be JSON (Content-Type: application/json), got ${req.headers['content-type'] ?? 'no Content-Type'}`);
  }
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch (error) {
    throw badRequest(`malformed JSON body: ${(error as Error).message}`);
  }
}

export function isJsonContentType(header: string | undefined): boolean {
  if (!header) return false;
  const media = header.split(';', 1)[0]!.trim().toLowerCase();
  return media === 'application/json' || (media.startsWith('application/') && media.endsWith('+json'));
}
