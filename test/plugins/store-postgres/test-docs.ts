// Test fixtures for the PostgreSQL store tests: a stored document with one chunk per given text, and
// polling for conditions another replica reaches asynchronously (no timed assertions).
import type { Chunk, StoredDocument } from '../../../core/index.ts';
import { createHash } from 'node:crypto';

const hash = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 16);

export function pgDoc(
  connector: string,
  sourceId: string,
  title: string,
  ...texts: string[]
): { doc: StoredDocument; chunks: Chunk[] } {
  const id = hash(`${connector}\0${sourceId}`);
  const body = texts.join('\n\n');
  const doc: StoredDocument = {
    id,
    connector,
    source: connector,
    sourceId,
    sourceUrl: null,
    title,
    body,
    contentType: 'text/markdown',
    metadata: { n: texts.length },
    updatedAt: '2026-01-01T00:00:00.000Z',
    contentHash: hash(body),
  };
  const chunks = texts.map((text, i) => ({
    id: `${id}:${hash(text)}`,
    documentId: id,
    chunkIndex: i,
    text,
    contentHash: hash(text),
    lineStart: null,
    lineEnd: null,
    symbol: null,
    lang: null,
  }));
  return { doc, chunks };
}

/** Polls `condition` every 20 ms until it holds; fails after `timeoutMs` (a generous bound, not a timing assertion). */
export async function eventually(condition: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
