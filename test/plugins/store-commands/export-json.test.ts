import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { IndexFixture } from '../../helpers/index-fixture.ts';
import { exportJsonPieces } from '../../../plugins/store-commands/export-json.ts';
import { chunkToWire, documentToWire } from '../../../plugins/tools-builtin/wire.ts';

const fx = new IndexFixture();
before(async () => {
  for (let i = 0; i < 5; i++) fx.ws.write(`docs/d${i}.md`, `# Doc ${i}\n\nText ${i}.`);
  await fx.sync();
});
after(() => fx.close());

describe('exportJsonPieces', () => {
  it('streams exactly the text of JSON.stringify(export, null, 2), in small pieces, and counts', async () => {
    const { documents, chunks } = await fx.kbctx.store.exportAll();
    const wire = { documents: documents.map(documentToWire), chunks: chunks.map(chunkToWire) };
    const expected = `${JSON.stringify(wire, null, 2)}\n`;
    const counts = { documents: 0, chunks: 0 };
    const pieces: string[] = [];
    for await (const piece of exportJsonPieces(fx.kbctx.store, counts, 100)) pieces.push(piece);
    assert.ok(pieces.length > 3);
    assert.equal(pieces.join(''), expected);
    assert.deepEqual(counts, { documents: 5, chunks: chunks.length });
  });
});

describe('exportJsonPieces counts', () => {
  it('fill in row by row as the pieces come out, so a progress display can read them', async () => {
    const counts = { documents: 0, chunks: 0 };
    const seen: number[] = [];
    for await (const _piece of exportJsonPieces(fx.kbctx.store, counts, 100))
      seen.push(counts.documents + counts.chunks);
    const total = counts.documents + counts.chunks;
    assert.ok((seen[0] ?? 0) > 0 && (seen[0] ?? 0) < total, `first piece after ${seen[0]} of ${total} rows`);
    assert.deepEqual(
      seen,
      [...seen].sort((a, b) => a - b),
      'never goes back',
    );
  });
});
