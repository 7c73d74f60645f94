// Decodes file bytes as text: UTF-16 (little- or big-endian) when the bytes start with its byte-order
// mark, else UTF-8. The BOM is removed; invalid sequences become U+FFFD rather than failing.
const DECODERS = {
  'utf-8': new TextDecoder('utf-8', { fatal: false, ignoreBOM: false }),
  'utf-16le': new TextDecoder('utf-16le', { fatal: false, ignoreBOM: false }),
  'utf-16be': new TextDecoder('utf-16be', { fatal: false, ignoreBOM: false }),
};

/** The UTF-16 encoding its byte-order mark announces, or null (no BOM: UTF-8 is assumed). */
export function utf16Encoding(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  if (bytes.length < 2) return null;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return null;
}

export function decodeText(bytes: Uint8Array): string {
  return DECODERS[utf16Encoding(bytes) ?? 'utf-8'].decode(bytes);
}
