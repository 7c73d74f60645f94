// Postings read out of FTS5 (ADR 0131: codes parsed in place, row lengths counted by rowid): the
// whole index and a batch of changed rows give the same postings, with title instances weighing 2.
import { documentId } from '../../../core/index.ts';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, describe, it } from 'node:test';
import { toDocument } from '../../../core/app/sync.ts';
import { toChunks } from '../../helpers/chunks.ts';
import { openSqliteStore } from '../../../plugins/store-sqlite/sqlite-store.ts';
import { FtsTokenizer, readAllPostings } from '../../../plugins/store-sqlite/postings-source.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'kbctx-postings-source-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function index(docs: { id: string; title: string; body: string }[]): Promise<string> {
  const file = path.join(dir, `index-${Math.random().toString(36).slice(2)}.sqlite`);
  const store = openSqliteStore(file);
  for (const d of docs) {
    const doc = toDocument({ sourceId: d.id, title: d.title, body: d.body }, documentId('fs:t', d.id), 'fs:t', 'fs:t');
    await store.upsertDocument(doc, toChunks(doc, { maxTokens: 400, overlapTokens: 0 }), null);
  }
  await store.close();
  return file;
}

describe('postings from FTS5', () => {
  it(
    'counts title instances twice, text once, and each row its ' + 'instances; the whole index and changed rows agree',
    async () => {
      const file = await index([
        { id: 'a', title: 'River', body: 'river river stone' },
        { id: 'b', title: 'Stone', body: 'moss' },
        { id: 'c', title: 'Moss', body: 'river moss moss moss' },
      ]);
      const db = new DatabaseSync(file);
      try {
        const all = readAllPostings(db);
        const rowOf = (n: number) => all.rows[n]!.row;
        assert.deepEqual(
          all.rows.map((r) => r.length),
          [4, 2, 5],
        ); // title + text tokens of each chunk
        assert.deepEqual(all.terms.get('river'), { ids: [rowOf(0), rowOf(2)], freqs: [2 + 1 + 1, 1] });
        assert.deepEqual(all.terms.get('stone'), { ids: [rowOf(0), rowOf(1)], freqs: [1, 2] });
        assert.deepEqual(all.terms.get('moss'), { ids: [rowOf(1), rowOf(2)], freqs: [1, 2 + 3] });
        const tokenizer = new FtsTokenizer(db);
        try {
          const changed = tokenizer.readRows([rowOf(2), rowOf(0)]);
          assert.deepEqual(
            changed.rows.map((r) => [r.row, r.length]),
            [
              [rowOf(0), 4],
              [rowOf(2), 5],
            ],
          );
          assert.deepEqual(changed.terms.get('river'), all.terms.get('river'));
          assert.deepEqual(changed.terms.get('moss'), { ids: [rowOf(2)], freqs: [5] });
          assert.deepEqual(
            tokenizer.readRows([rowOf(1)]).rows.map((r) => r.length),
            [2],
          );
          assert.deepEqual(tokenizer.readRows([]), { rows: [], terms: new Map() });
        } finally {
          tokenizer.close();
        }
      } finally {
        db.close();
      }
    },
  );

  it('an empty index has no rows and no terms', async () => {
    const db = new DatabaseSync(await index([]));
    try {
      assert.deepEqual(readAllPostings(db), { rows: [], terms: new Map() });
    } finally {
      db.close();
    }
  });
});
