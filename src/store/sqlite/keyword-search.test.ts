import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { analyzeQuery } from '../../core/search/analyze-query.ts';
import { documentId } from '../../core/ids.ts';
import { toChunks, toDocument } from '../../app/sync.ts';
import { openSqliteStore, type SqliteStore } from './sqlite-store.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'lore-kw-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function put(store: SqliteStore, sourceId: string, body: string): void {
  const doc = toDocument({ sourceId, body, title: sourceId }, documentId('test:x', sourceId), 'test:x', 'test:x');
  store.upsertDocument(doc, toChunks(doc, { maxTokens: 700, overlapTokens: 0 }), null);
}

const scoreOf = (store: SqliteStore, q: string): number[] =>
  store.keywordSearch({ terms: analyzeQuery(q), limit: 20, candidateK: 20 }).hits.map((h) => h.score);

describe('keyword statistics cache', () => {
  it('sees writes made through another connection (another process or store)', () => {
    const file = path.join(dir, 'index.sqlite');
    const reader = openSqliteStore(file);
    const writer = openSqliteStore(file);
    put(writer, 'a', 'zebra crossing rules');
    put(writer, 'b', 'nothing relevant here');
    const before = scoreOf(reader, 'zebra');
    for (let i = 0; i < 8; i++) put(writer, `z${i}`, `zebra herd number ${i}`);
    const after = scoreOf(reader, 'zebra');
    const fresh = openSqliteStore(file);
    assert.deepEqual(after, scoreOf(fresh, 'zebra'), 'the cached reader scores like a fresh connection');
    assert.notDeepEqual(after.slice(0, 1), before, 'the term became common, so its weight changed');
    for (const s of [reader, writer, fresh]) s.close();
  });
});
