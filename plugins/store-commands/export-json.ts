// `kbctx export`'s body: every document and chunk as one JSON object, produced in pieces so memory stays
// bounded however large the index. Reads the store only through its iterators.
import { chunkToWire, documentToWire } from '../tools-builtin/api.ts';
import type { Store } from '../../core/api/plugin.ts';

/**
 * The export (`{documents, chunks}` as JSON, formatted like JSON.stringify(value, null, 2)) as a
 * sequence of text pieces of about `pieceChars` each, read row by row: memory stays bounded however
 * large the index. `counts` is filled in as the pieces are produced.
 */
export async function* exportJsonPieces(
  store: Store,
  counts = { documents: 0, chunks: 0 },
  pieceChars = 1 << 16,
): AsyncGenerator<string> {
  let buffer = '{\n';
  const section = async function* (
    name: 'documents' | 'chunks',
    items: AsyncIterable<unknown>,
    last: boolean,
  ): AsyncGenerator<string> {
    buffer += `  "${name}": [`;
    let n = 0;
    for await (const item of items) {
      buffer += `${n === 0 ? '' : ','}\n    ${JSON.stringify(item, null, 2).replaceAll('\n', '\n    ')}`;
      counts[name] = ++n;
      if (buffer.length >= pieceChars) {
        yield buffer;
        buffer = '';
      }
    }
    counts[name] = n;
    buffer += `${n === 0 ? '' : '\n  '}]${last ? '' : ','}\n`;
  };
  yield* section('documents', map(store.iterateDocuments(), documentToWire), false);
  yield* section('chunks', map(store.iterateChunks(), chunkToWire), true);
  yield `${buffer}}\n`;
}

async function* map<A, B>(items: AsyncIterable<A>, fn: (a: A) => B): AsyncGenerator<B> {
  for await (const item of items) yield fn(item);
}
