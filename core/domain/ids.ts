// Stable identifiers. Document ids are UUIDv5 over (source, source_id) so they survive re-syncs and
// `--full`; chunk ids derive from the chunk's content so an unchanged chunk keeps its id (and, later,
// its embedding) when its document is edited elsewhere.
// node:crypto (~5 ms to load) is taken on the first hash, not at start-up: `kbctx search` hashes nothing (ADR 0130).
const createHash = (algorithm: string) => process.getBuiltinModule('node:crypto').createHash(algorithm);

// Fixed namespace for kbctx document ids (a random UUID chosen once; never change it).
const NAMESPACE = Buffer.from('6f1b2a4e8d3c4b7a9e5f0c1d2b3a4958', 'hex');

export function documentId(source: string, sourceId: string): string {
  const hash = createHash('sha1').update(NAMESPACE).update(`${source}\u0000${sourceId}`).digest();
  hash[6] = ((hash[6] ?? 0) & 0x0f) | 0x50; // version 5
  hash[8] = ((hash[8] ?? 0) & 0x3f) | 0x80; // RFC 4122 variant
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export function sha256Hex(text: string | Uint8Array): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Ids for a document's chunk texts, in order. The id hashes the document id, the text and the
 * text's occurrence number (so two identical paragraphs in one document still get distinct ids).
 */
export function chunkIds(docId: string, texts: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return texts.map((text) => {
    const hash = sha256Hex(text);
    const n = seen.get(hash) ?? 0;
    seen.set(hash, n + 1);
    return sha256Hex(`${docId}\u0000${hash}\u0000${n}`).slice(0, 32);
  });
}
