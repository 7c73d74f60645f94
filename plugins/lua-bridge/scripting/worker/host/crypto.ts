// Host module `crypto`: SHA-256 and HMAC-SHA-256, both as lower-case hex.
import { createHash, createHmac } from 'node:crypto';

export function sha256(text: unknown): string {
  if (typeof text !== 'string') throw new Error('crypto.sha256: expected a string');
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function hmacSha256(key: unknown, data: unknown): string {
  if (typeof key !== 'string' || typeof data !== 'string')
    throw new Error('crypto.hmac_sha256: expected (key, data) strings');
  return createHmac('sha256', key).update(data, 'utf8').digest('hex');
}
