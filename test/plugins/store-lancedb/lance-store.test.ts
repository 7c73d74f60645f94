// The LanceDB store beyond the shared contract: two connections on one table folder (a server and a
// hand-run sync) writing the same documents at once never duplicate a row, and a reader polling while
// another process rewrites documents only ever sees whole documents; vectors of the first table layout
// are moved to their own column at open; a filter too wide for a prefilter is checked on Lance's hits;
// a missing package is a clear error.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { after, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { embedChunks, makeDoc, SPACE, unit } from '../../contract/store/fixtures.ts';
import { openLanceStore } from '../../../plugins/store-lancedb/lance-store.ts';
import { joinedRegExp } from '../../helpers/joined-regexp.ts';

// What the child processes below import: the store and the contract fixtures.
const LANCE_STORE = JSON.stringify(new URL('../../../plugins/' + 'store-lancedb/lance-store.ts', import.meta.url).href);
const FIXTURES = JSON.stringify(new URL('../../contract/store/' + 'fixtures.ts', import.meta.url).href);
const root = mkdtempSync(path.join(tmpdir(), 'kbctx-lance-'));
after(() => rmSync(root, { recursive: true, force: true }));

it('two connections upserting the same documents at once never duplicate a row', async () => {
  const dir = path.join(root, 'dup.lance');
  const [a, b] = [await openLanceStore(dir), await openLanceStore(dir)];
  try {
    for (let round = 0; round < 5; round++) {
      const docs = Array.from({ length: 5 }, (_, i) =>
        makeDoc('filesystem:x', `d${i}.md`, [`round ${round} text ${i}`, `more ${round}`]),
      );
      await Promise.all([a, b].flatMap((store) => docs.map((d) => store.upsertDocument(d.doc, d.chunks, null))));
    }
    const report = await a.checkIntegrity();
    assert.deepEqual(report.sqlite, [], 'no duplicate rows');
    assert.equal(report.chunks, 10);
    assert.deepEqual(await b.counts(), { documents: 5, chunks: 10, embedded: 0 });
  } finally {
    await a.close();
    await b.close();
  }
});

it(
  'a sync that waited for another sees its commits: ' + 'documentStates after beginBulk reads the latest version',
  async () => {
    // The sync opens its bulk group, then waits for the connector lock while another process syncs the
    // same connector; once it has the lock it must compare against what that sync wrote, not against the
    // snapshot it opened with (else every document of the other sync is rewritten: issue 29 item 17).
    const dir = path.join(root, 'waited.lance');
    const [waiting, other] = [await openLanceStore(dir), await openLanceStore(dir)];
    try {
      await waiting.beginBulk();
      const docs = Array.from({ length: 3 }, (_, i) => makeDoc('filesystem:x', `w${i}.md`, [`text ${i}`]));
      for (const d of docs) await other.upsertDocument(d.doc, d.chunks, `fp${d.doc.sourceId}`);
      const states = await waiting.documentStates('filesystem:x');
      assert.deepEqual(
        [...states.keys()].sort(),
        docs.map((d) => d.doc.id).sort(),
        "the other sync's documents are seen",
      );
      assert.equal(states.get(docs[0]!.doc.id)?.fingerprint, 'fpw0.md');
      const outcome = await waiting.upsertDocument(docs[1]!.doc, docs[1]!.chunks, 'fpw1.md');
      await waiting.endBulk();
      assert.deepEqual(outcome, { chunksWritten: 0, chunksDeleted: 0 }, 'the same content is not rewritten');
    } finally {
      await waiting.close();
      await other.close();
    }
  },
);

it('a reader while another process rewrites documents only ever sees whole documents', async () => {
  const dir = path.join(root, 'reader.lance');
  const reader = await openLanceStore(dir);
  // The writer is another process, as a hand-run sync beside a server is.
  const code = `
    const { openLanceStore } = await import(${LANCE_STORE});
    const { makeDoc } = await import(${FIXTURES});
    const writer = await openLanceStore(${JSON.stringify(dir)});
    for (let v = 0; v < 15; v++) {
      await writer.beginBulk();
      for (let i = 0; i < 4; i++) {
        const d = makeDoc('filesystem:x', 'd' + i + '.md', Array.from({ length: 3 + (v % 3) }, (_,
          c) => 'v' + v + ' chunk ' + c));
        await writer.upsertDocument(d.doc, d.chunks, null);
      }
      await writer.endBulk();
    }
    await writer.close();`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  let done = false;
  void exited.then(() => (done = true));
  try {
    let checks = 0;
    while (!done) {
      const { documents, chunks } = await reader.exportAll();
      for (const d of documents) {
        const own = chunks.filter((c) => c.documentId === d.id);
        assert.deepEqual(
          own.map((c) => c.text),
          d.body.split('\n\n'),
          'chunks and body of one version',
        );
      }
      checks++;
      await sleep(10);
    }
    assert.equal(await exited, 0, stderr);
    assert.ok(checks > 1, `${checks} checks`);
    assert.equal((await reader.counts()).documents, 4);
    assert.equal(
      (await reader.getChunks(makeDoc('filesystem:x', 'd0.md', []).doc.id)).length,
      5,
      'the last version (v14: 5 chunks)',
    );
  } finally {
    await reader.close();
  }
});

it('an index of the first layout (vectors in one variable-length column) is searched after its next open', async () => {
  const dir = path.join(root, 'first-layout.lance');
  const d = makeDoc('filesystem:x', 'v.md', ['vector text']);
  const store = await openLanceStore(dir);
  await store.upsertDocument(d.doc, d.chunks, null);
  await store.close();
  // The emb row as the first layout wrote it: the vector in `vector`, no `vector_4` column.
  const lancedb = await import('@lancedb/lancedb');
  const db = await lancedb.connect(dir);
  const table = await db.openTable('kb');
  const chunk = d.chunks[0]!;
  const base = Object.fromEntries((await table.schema()).fields.map((f) => [f.name, null]));
  await table.add([
    {
      ...base,
      row_key: `e:${chunk.id}`,
      kind: 'emb',
      doc_id: d.doc.id,
      model: SPACE.model,
      dims: 4,
      content_hash: chunk.contentHash,
      vector: [1, 0, 0, 0],
    },
  ]);
  table.close();
  db.close();
  const reopened = await openLanceStore(dir);
  try {
    const { hits } = await reopened.vectorSearch({ vector: unit([1, 0, 0, 0]), space: SPACE, limit: 5, candidateK: 5 });
    assert.deepEqual(
      hits.map((h) => [h.document.id, Math.round(h.score * 1000) / 1000]),
      [[d.doc.id, 1]],
    );
    assert.equal(await reopened.countPendingEmbeddings(SPACE), 0);
  } finally {
    await reopened.close();
  }
});

it(
  'a filter leaving more documents than a prefilter takes ' + 'is checked on the hits, still filling the limit',
  async () => {
    // 2100 documents pass `source: git` (above the 2000 sent as doc_id IN (...)); the 40 closest vectors
    // belong to filesystem documents, which the postfilter drops before asking Lance for more rows.
    const store = await openLanceStore(path.join(root, 'postfilter.lance'));
    try {
      const near = Array.from({ length: 40 }, (_, i) => makeDoc('filesystem:v', `near${i}.md`, [`near ${i}`]));
      const far = Array.from({ length: 2100 }, (_, i) => makeDoc('git:v', `far${i}.md`, [`far ${i}`]));
      await store.beginBulk();
      for (const d of [...near, ...far]) await store.upsertDocument(d.doc, d.chunks, null);
      await store.endBulk();
      // Cosine to the query: near i → 0.99 - i/1000; far i → 0.5 - i/10000.
      const at = (c: number): Float32Array => unit([c, Math.sqrt(1 - c * c), 0, 0]);
      await embedChunks(store, SPACE, (text) => {
        const [kind, n] = text.split(' ');
        return at(kind === 'near' ? 0.99 - Number(n) / 1000 : 0.5 - Number(n) / 10000);
      });
      const query = { vector: unit([1, 0, 0, 0]), space: SPACE, limit: 3, candidateK: 3 };
      const { hits } = await store.vectorSearch({ ...query, filter: { source: 'git' } });
      assert.deepEqual(
        hits.map((h) => h.chunk.text),
        ['far 0', 'far 1', 'far 2'],
      );
      const unfiltered = await store.vectorSearch(query);
      assert.deepEqual(
        unfiltered.hits.map((h) => h.chunk.text),
        ['near 0', 'near 1', 'near 2'],
      );
    } finally {
      await store.close();
    }
  },
);

it('without @lancedb/lancedb installed, opening the store is a config error naming the plugin', async () => {
  // A resolve hook makes the package missing, as on a platform npm installed no build for.
  const code = `
    import { registerHooks } from 'node:module';
    registerHooks({ resolve(specifier, context, next) {
      if (specifier === '@lancedb/lancedb') throw Object.assign(new Error("Cannot find package '@lancedb/lancedb'"),
        { code: 'ERR_MODULE_NOT_FOUND' });
      return next(specifier, context);
    } });
    const { openLanceStore } = await import(${LANCE_STORE});
    try { await openLanceStore(${JSON.stringify(path.join(root, 'missing.lance'))}); console.log('opened'); }
    catch (error) { console.log(error.code + ': ' + error.message); }`;
  const out = await new Promise<string>((resolve) => {
    let text = '';
    const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.on('exit', () => resolve(text));
  });
  assert.match(
    out,
    joinedRegExp(
      /^config_error: db\.engine = "lancedb": the store plugin store-lancedb needs the optional packages /,
      /@lancedb\/lancedb and apache-arrow, which are not installed for \S+ \(Cannot find package /,
      /'@lancedb\/lancedb'\)/,
    ),
  );
});
