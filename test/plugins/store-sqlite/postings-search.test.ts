import { analyzeQuery, documentId, type SourceFilter } from '../../../core/index.ts';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, describe, it } from 'node:test';
import { toDocument } from '../../../core/app/sync.ts';
import { toChunks } from '../../helpers/chunks.ts';
import { openSqliteStore, type SqliteStore } from '../../../plugins/store-sqlite/sqlite-store.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'kbctx-postings-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const newFile = (): string => path.join(dir, `index-${files++}.sqlite`);

const WORDS = [
  ...(
    'alpha beta gamma delta epsilon zeta theta kappa lambda sigma ' +
    'omega river mountain forest running runner runs cats dog'
  ).split(' '),
  ...Array.from({ length: 150 }, (_, i) => `w${i.toString(36)}x`),
];
function random(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}
const text = (rand: () => number, n: number): string =>
  Array.from({ length: n }, () => WORDS[Math.floor(rand() ** 2 * WORDS.length)]).join(' ');

async function put(
  store: SqliteStore,
  connector: string,
  sourceId: string,
  title: string,
  body: string,
): Promise<void> {
  const doc = toDocument({ sourceId, body, title }, documentId(connector, sourceId), connector, connector);
  await store.upsertDocument(doc, toChunks(doc, { maxTokens: 40, overlapTokens: 0 }), null);
}

async function fill(store: SqliteStore, seed: number, count: number): Promise<void> {
  const rand = random(seed);
  await store.beginBulk();
  for (let i = 0; i < count; i++)
    await put(
      store,
      i % 3 === 0 ? 'git:docs' : 'filesystem:notes',
      `d${i}`,
      text(rand, 2),
      text(rand, 10 + Math.floor(rand() * 90)),
    );
  await store.endBulk();
}

type Ranked = [string, string][];
const ranked = async (store: SqliteStore, query: string, limit = 10, filter?: SourceFilter): Promise<Ranked> =>
  (await store.keywordSearch({ terms: analyzeQuery(query), limit, candidateK: limit, filter })).hits.map((h) => [
    h.document.id,
    h.raw.toFixed(9),
  ]);

const QUERIES = [
  'alpha omega',
  'running cats',
  'river mountain forest',
  'zeta',
  'kappa lambda sigma beta',
  'nothingmatches',
  'dog theta run',
  'w1x w2x w3x',
  'w4x omega w10x w2ax',
];

/** Same scores in the same order; the documents too, except among those tied with the last one (either may be cut). */
function assertSameRanking(got: Ranked, want: Ranked, message: string): void {
  assert.deepEqual(
    got.map((h) => h[1]),
    want.map((h) => h[1]),
    message,
  );
  const cut = want.at(-1)?.[1];
  assert.deepEqual(
    got.filter((h) => h[1] !== cut),
    want.filter((h) => h[1] !== cut),
    message,
  );
}

/** Both engines over the same file give the same documents with the same scores. */
async function assertSameAsFts(file: string, filter?: SourceFilter): Promise<void> {
  const postings = openSqliteStore(file);
  const fts = openSqliteStore(file, { keywordEngine: 'fts5' });
  for (const q of QUERIES) {
    for (const limit of [1, 5, 25])
      assertSameRanking(
        await ranked(postings, q, limit, filter),
        await ranked(fts, q, limit, filter),
        `${q} @${limit}`,
      );
  }
  await postings.close();
  await fts.close();
}

describe('postings keyword engine', () => {
  it('ranks exactly as FTS5 after a build, with and without a source filter', async () => {
    const file = newFile();
    const store = openSqliteStore(file);
    await fill(store, 1, 300);
    await store.compact();
    await store.close();
    await assertSameAsFts(file);
    await assertSameAsFts(file, { source: 'git:docs' });
    await assertSameAsFts(file, { source: 'filesystem' });
  });

  it('follows updates, deletes and title changes made through another connection, incrementally', async () => {
    const file = newFile();
    const writer = openSqliteStore(file);
    await fill(writer, 2, 200);
    await writer.compact();
    const reader = openSqliteStore(file);
    const fts = openSqliteStore(file, { keywordEngine: 'fts5' });
    assertSameRanking(await ranked(reader, 'alpha omega'), await ranked(fts, 'alpha omega'), 'before');
    const rand = random(3);
    await put(writer, 'git:docs', 'd3', 'omega omega', text(rand, 50)); // a title change rewrites every chunk
    await put(writer, 'filesystem:notes', 'd4', text(rand, 2), 'alpha omega alpha omega river');
    await put(writer, 'filesystem:notes', 'new', 'alpha', 'omega omega omega');
    await writer.deleteDocuments([documentId('filesystem:notes', 'd5'), documentId('filesystem:notes', 'd7')]);
    for (const q of QUERIES) assertSameRanking(await ranked(reader, q, 25), await ranked(fts, q, 25), q);
    for (const s of [writer, reader, fts]) await s.close();
  });

  it('filters before the cut: a small source still fills the limit', async () => {
    const file = newFile();
    const store = openSqliteStore(file);
    await fill(store, 4, 150);
    for (let i = 0; i < 5; i++) await put(store, 's3:small', `s${i}`, 'plain', `kappa note ${i}`);
    const hits = (
      await store.keywordSearch({
        terms: analyzeQuery('kappa'),
        limit: 5,
        candidateK: 5,
        filter: { source: 's3:small' },
      })
    ).hits;
    assert.equal(hits.length, 5);
    assert.ok(hits.every((h) => h.document.connector === 's3:small'));
    await store.close();
  });

  it('saves the postings beside the database and drops the log it covers', async () => {
    const file = newFile();
    const store = openSqliteStore(file);
    await fill(store, 5, 50);
    await store.compact();
    assert.ok(statSync(`${file}.keyword`).size > 0);
    await store.close();
    const raw = new DatabaseSync(file);
    assert.equal((raw.prepare('SELECT count(*) AS n FROM keyword_log').get() as { n: number }).n, 0);
    raw.close();
  });

  it('uses a stale file with the logged changes, and ignores a torn file or one from another database', async () => {
    const file = newFile();
    const store = openSqliteStore(file);
    await fill(store, 6, 120);
    await store.compact();
    // Changes committed, then the process dies before saving the postings again (kill -9).
    await put(store, 'git:docs', 'late', 'sigma', 'sigma sigma zeta');
    await store.deleteDocuments([documentId('git:docs', 'd0')]);
    await store.close();
    await assertSameAsFts(file);

    const saved = readFileSync(`${file}.keyword`);
    writeFileSync(`${file}.keyword`, saved.subarray(0, saved.length >> 1));
    await assertSameAsFts(file);

    const other = newFile();
    const otherStore = openSqliteStore(other);
    await fill(otherStore, 7, 60);
    await otherStore.compact();
    await otherStore.close();
    writeFileSync(`${file}.keyword`, readFileSync(`${other}.keyword`));
    await assertSameAsFts(file);
  });

  it('stays exact after a writer process is killed (kill -9) between committing and saving the postings', async () => {
    const file = newFile();
    const child = path.join(dir, 'writer.ts');
    const src = (name: string): string => JSON.stringify(new URL(name, import.meta.url).href);
    writeFileSync(
      child,
      `import { openSqliteStore } from ${src('../../../plugins/store-sqlite/sqlite-store.ts')};
       import { toDocument } from ${src('../../../core/app/sync.ts')};
       import { toChunks } from ${src('../../helpers/chunks.ts')};
       const store = openSqliteStore(${JSON.stringify(file)});
       const put = async (id, title, body) => {
         const doc = toDocument({ sourceId: id, title, body }, 'doc-' + id, 'git:docs', 'git:docs');
         await store.upsertDocument(doc, toChunks(doc, { maxTokens: 40, overlapTokens: 0 }), null);
       };
       for (let i = 0; i < 40; i++) await put('a' + i, 'alpha ' + i, 'omega river mountain '.repeat(1 + (i % 5)) + i);
       await store.compact();
       await put('a1', 'changed title', 'omega omega');
       await store.deleteDocuments(['doc-a2']);
       await store.beginBulk();
       await put('lost', 'alpha omega', 'never committed');
       process.kill(process.pid, 'SIGKILL');`,
    );
    const run = spawnSync(process.execPath, [child], { encoding: 'utf8' });
    assert.equal(run.signal, 'SIGKILL', run.stderr);
    await assertSameAsFts(file);
    const store = openSqliteStore(file);
    assert.equal(await store.getDocument('doc-lost'), null);
    assert.equal((await ranked(store, 'omega')).length, 10);
    await store.close();
  });

  it('leaves a token FTS5 would index as a phrase to FTS5', async () => {
    const file = newFile();
    const postings = openSqliteStore(file);
    const fts = openSqliteStore(file, { keywordEngine: 'fts5' });
    await put(postings, 'git:docs', 'x', 'word', 'state of the art results');
    const terms = [{ token: 'state-of', stem: 'state-of' }];
    const got = (await postings.keywordSearch({ terms, limit: 5, candidateK: 5 })).hits.map((h) => h.document.id);
    assert.deepEqual(
      got,
      (await fts.keywordSearch({ terms, limit: 5, candidateK: 5 })).hits.map((h) => h.document.id),
    );
    assert.equal(got.length, 1);
    await postings.close();
    await fts.close();
  });
});
