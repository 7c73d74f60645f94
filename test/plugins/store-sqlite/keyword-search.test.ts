import { analyzeQuery, documentId } from '../../../core/index.ts';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { toDocument } from '../../../core/app/sync.ts';
import { toChunks } from '../../helpers/chunks.ts';
import { openSqliteStore, type SqliteStore } from '../../../plugins/store-sqlite/sqlite-store.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'kbctx-kw-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function put(store: SqliteStore, sourceId: string, body: string): Promise<void> {
  const doc = toDocument({ sourceId, body, title: sourceId }, documentId('test:x', sourceId), 'test:x', 'test:x');
  await store.upsertDocument(doc, toChunks(doc, { maxTokens: 700, overlapTokens: 0 }), null);
}

const scoreOf = async (store: SqliteStore, q: string): Promise<number[]> =>
  (await store.keywordSearch({ terms: analyzeQuery(q), limit: 20, candidateK: 20 })).hits.map((h) => h.score);

describe('keyword statistics cache', () => {
  it('sees writes made through another connection (another process or store)', async () => {
    const file = path.join(dir, 'index.sqlite');
    const reader = openSqliteStore(file);
    const writer = openSqliteStore(file);
    await put(writer, 'a', 'zebra crossing rules');
    await put(writer, 'b', 'nothing relevant here');
    const before = await scoreOf(reader, 'zebra');
    for (let i = 0; i < 8; i++) await put(writer, `z${i}`, `zebra herd number ${i}`);
    const after = await scoreOf(reader, 'zebra');
    const fresh = openSqliteStore(file);
    assert.deepEqual(after, await scoreOf(fresh, 'zebra'), 'the cached reader scores like a fresh connection');
    assert.notDeepEqual(after.slice(0, 1), before, 'the term became common, so its weight changed');
    for (const s of [reader, writer, fresh]) await s.close();
  });
});
