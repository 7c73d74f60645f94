// Decodes file bytes as UTF-8 (BOM removed; invalid sequences become U+FFFD rather than failing).
const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false });

export function decodeText(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}
