// Binary sniffing: a NUL in the first 8 KiB means "not text" (git uses the same rule). For a file that
// starts with a UTF-16 byte-order mark the NUL is looked for among its 16-bit characters, not bytes.
import { decodeText, utf16Encoding } from './api.ts';

const SNIFF_BYTES = 8192;

export function looksBinary(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, SNIFF_BYTES);
  if (utf16Encoding(head) !== null) return decodeText(head).includes('\u0000');
  return head.includes(0);
}
