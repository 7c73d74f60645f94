// Keyword postings persisted in a Lance table (ADR 0234) answer as the in-memory KeywordIndex fed the
// same writes: the same hits, rows, groups and scores, the same document frequencies and totals, after
// incremental puts, updates and removals, after a merge, from a new connection, after a write that
// was killed between the main table's commit and the postings' one (caught up at the next open), after
// a first build cut short, and after a writer process SIGKILLed mid-write.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { after, it } from 'node:test';
import { loadLance } from '../../../plugins/store-lancedb/lance-module.ts';
import { mergeDue, openPostingsTable, type PostingsTable } from '../../../plugins/store-lancedb/postings-table.ts';
import { EMPTY_TOTALS } from '../../../plugins/store-lancedb/postings-codec.ts';
import type { PostingsDoc } from '../../../plugins/store-lancedb/postings-changes.ts';
import { abstracts, postingsBatches, queryTerms, Reference, toPostingsDoc } from './postings-fixture.ts';

const root = mkdtempSync(path.join(tmpdir(), 'kbctx-postings-'));
after(() => rmSync(root, { recursive: true, force: true }));
const corpus = abstracts(500);
const queries = queryTerms(120);

async function open(dir: string): Promise<PostingsTable> {
  const lance = await loadLance();
  return openPostingsTable(await lance.lancedb.connect(dir, { readConsistencyInterval: 0 }), lance);
}

async function assertSame(table: PostingsTable, ref: Reference, label: string): Promise<void> {
  assert.equal(table.size, ref.index.size, `${label}: N`);
  let found = 0;
  for (const [i, terms] of queries.entries()) {
    const freqs = await table.docFreq(terms);
    for (const t of terms) assert.equal(freqs.get(t), ref.index.docFreq(t), `${label}: df of ${t}`);
    for (const [limit, allow] of [
      [10, undefined],
      [100, undefined],
      [10, (g: number) => g % 3 !== 0],
    ] as const) {
      const got = await table.search(terms, limit, allow);
      const want = ref.index.search(terms, limit, allow);
      assert.deepEqual(
        got.hits.map((h) => [h.row, h.group]),
        want.hits.map((h) => [h.row, h.group]),
        `${label}: query ${i} limit ${limit}${allow ? ' filtered' : ''}`,
      );
      got.hits.forEach((h, j) => assert.ok(Math.abs(h.score - want.hits[j]!.score) <= 1e-9, `${label}: score`));
      found += got.hits.length;
    }
  }
  assert.ok(found > queries.length * 10, `${label}: the queries find documents (${found} hits)`);
}

it('answers as the in-memory index: after incremental writes, a merge, and from a new connection', async () => {
  const dir = path.join(root, 'incremental');
  const table = await open(dir);
  const ref = new Reference();
  let version = 0;
  const write = async (put: PostingsDoc[], remove: string[] = []): Promise<void> => {
    ref.apply({ put, remove });
    await table.apply({ put, remove }, ++version);
  };
  for (let i = 0; i < 300; i += 100) await write(corpus.slice(i, i + 100).map((a) => toPostingsDoc(a)));
  await assertSame(table, ref, 'puts');
  await table.merge();
  await assertSame(table, ref, 'merged');
  // Updates (new text: new chunks), removals, and new documents, each its own commit of deltas.
  await write(corpus.slice(0, 40).map((a) => toPostingsDoc(a, ' Revised cohort mortality estimate.')));
  await write(
    [],
    corpus.slice(40, 70).map((a) => a._id),
  );
  await write(
    corpus.slice(300, 500).map((a) => toPostingsDoc(a)),
    corpus.slice(70, 75).map((a) => a._id),
  );
  await write([toPostingsDoc(corpus[42]!)], []); // removed above, put again: a new group, as the model does
  await assertSame(table, ref, 'deltas and dead slots');
  assert.equal(table.version, version);
  const groups = await table.groupsOf([corpus[0]!._id, corpus[50]!._id, corpus[42]!._id, 'absent']);
  assert.deepEqual(
    [...groups.keys()],
    [corpus[0]!._id, corpus[42]!._id],
    'removed and unknown documents have no group',
  );
  assert.equal(groups.get(corpus[0]!._id), 0, 'an updated document keeps its group');
  const other = await open(dir);
  await assertSame(other, ref, 'a new connection');
  await table.merge();
  await assertSame(table, ref, 'merged again');
  assert.equal(await other.refresh(), true, 'the merge moved the meta row');
  await assertSame(other, ref, 'the other connection after the merge');
});

it('tidy() brings the term and grp indexes over the rows written since, and answers stay the same', async () => {
  const dir = path.join(root, 'tidy');
  const table = await open(dir);
  const ref = new Reference();
  const write = async (put: PostingsDoc[], version: number): Promise<void> => {
    ref.apply({ put, remove: [] });
    await table.apply({ put, remove: [] }, version);
  };
  await write(
    corpus.slice(0, 100).map((a) => toPostingsDoc(a)),
    1,
  );
  const lance = await loadLance();
  const raw = await (await lance.lancedb.connect(dir, { readConsistencyInterval: 0 })).openTable('kb_postings');
  const unindexed = async (): Promise<number[]> =>
    Promise.all(['term_idx', 'grp_idx'].map(async (n) => (await raw.indexStats(n))?.numUnindexedRows ?? -1));
  assert.deepEqual(await unindexed(), [-1, -1], 'no merge yet: no indexes');
  assert.equal(await table.tidy(), true, 'creates the missing indexes');
  assert.deepEqual(await unindexed(), [0, 0]);
  await write(
    corpus.slice(100, 250).map((a) => toPostingsDoc(a)),
    2,
  );
  assert.ok(
    (await unindexed()).every((n) => n > 0),
    'the write added rows outside the indexes',
  );
  assert.equal(await table.tidy(), false, 'below the threshold: nothing written');
  assert.equal(await table.tidy(0), true);
  assert.deepEqual(await unindexed(), [0, 0]);
  assert.equal(await table.tidy(0), false, 'up to date: nothing written');
  await assertSame(table, ref, 'tidied');
  await assertSame(await open(dir), ref, 'tidied, a new connection');
});

it(
  'a write killed before the postings commit is caught up ' + 'at the next open: the same answers as a rebuild',
  async () => {
    const dir = path.join(root, 'killed');
    const table = await open(dir);
    const truth = new Map<string, PostingsDoc>();
    const put = corpus.slice(0, 200).map((a) => toPostingsDoc(a));
    for (const d of put) truth.set(d.id, d);
    await table.apply({ put, remove: [] }, 1);
    // The main table commits version 2 (updates and a removal), then the process dies: apply() never runs.
    for (const a of corpus.slice(0, 20)) truth.set(a._id, toPostingsDoc(a, ' Killed mid-sync.'));
    for (const a of corpus.slice(20, 30)) truth.delete(a._id);
    for (const a of corpus.slice(200, 260)) truth.set(a._id, toPostingsDoc(a));
    const reopened = await open(dir);
    assert.equal(reopened.version, 1, 'the postings say they are behind the main table (version 2)');
    const { differ, extra } = await reopened.differences(truth.values());
    assert.deepEqual([differ.length, extra.length], [20 + 60, 10], 'doctor sees the documents the lost write changed');
    assert.equal(await reopened.catchUp(truth.values(), 2), 20 + 10 + 60, 'only the documents that differ are written');
    assert.equal(reopened.version, 2);
    assert.equal(await reopened.catchUp(truth.values(), 2), 0, 'caught up: nothing left to write');
    assert.deepEqual(await reopened.differences(truth.values()), { differ: [], extra: [] });
    // The reference is a rebuild from the truth in the order the catch-up put them (groups differ from a
    // fresh build only in numbering, which the rebuild below repeats: ties go to the lower group).
    const rebuilt = await open(path.join(root, 'rebuilt'));
    await rebuilt.apply({ put: [...truth.values()], remove: [] }, 2);
    for (const terms of queries) {
      const [a, b] = [await reopened.search(terms, 10), await rebuilt.search(terms, 10)];
      const docsOf = async (t: PostingsTable, hits: typeof a.hits) => {
        const docs = await t.documents(hits.map((h) => h.group));
        return hits.map((h) => {
          const doc = docs.get(h.group)!;
          return [doc.id, doc.record.chunkIds[doc.record.slots.indexOf(h.row)], h.score.toFixed(9)];
        });
      };
      assert.deepEqual(await docsOf(reopened, a.hits), await docsOf(rebuilt, b.hits));
    }
  },
);

it(
  'the first build is a catch-up from the chunk rows, and ' + 'one cut short by a kill is resumed by the next',
  async () => {
    const dir = path.join(root, 'first-build');
    const docs = corpus.slice(0, 400).map((a) => toPostingsDoc(a));
    async function* readBatches(killAfter = Infinity): AsyncGenerator<PostingsDoc> {
      for (const [i, doc] of docs.entries()) {
        if (i === killAfter) throw new Error('killed');
        yield doc;
      }
    }
    const table = await open(dir);
    await assert.rejects(table.catchUp(readBatches(150), 7, 64), /killed/);
    const reopened = await open(dir);
    assert.equal(reopened.version, -1, 'the groups written so far do not claim the version');
    assert.equal(
      await reopened.catchUp(readBatches(), 7, 64),
      400 - 128,
      'the two groups committed are not written again',
    );
    assert.equal(reopened.version, 7);
    const ref = new Reference();
    ref.apply({ put: docs, remove: [] });
    await assertSame(reopened, ref, 'resumed first build');
  },
);

it('a writer killed (SIGKILL) at any point leaves the postings of its last whole commit', async () => {
  const dir = path.join(root, 'sigkill');
  const batches = postingsBatches();
  for (const killAt of [2, 5]) {
    const child = spawn(
      process.execPath,
      [fileURLToPath(new URL('./postings-writer-child.ts', import.meta.url)), dir],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    // Killed as soon as it reports commit `killAt` (from a fresh table) or the next one: it is then
    // inside its next apply(), merge() or between them — wherever the kill lands, the assertion holds.
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes(`commit ${killAt}\n`)) child.kill('SIGKILL');
      });
      child.on('exit', () => resolve());
    });
    const table = await open(dir);
    const ref = new Reference();
    for (const change of batches.slice(0, table.version)) ref.apply(change);
    assert.ok(table.version >= killAt, `the reported commits are there (version ${table.version})`);
    await assertSame(table, ref, `killed after commit ${killAt}`);
    rmSync(dir, { recursive: true, force: true });
  }
});

it('a bulk load folds its deltas only when a read would join too many delta rows, not as they outgrow the base', () => {
  const outgrown = { ...EMPTY_TOTALS, basePostings: 2_000_000, deltaPostings: 2_500_000, deltaWrites: 40 };
  assert.equal(mergeDue(outgrown, false), true, 'a write outside a bulk load folds');
  assert.equal(mergeDue(outgrown, true), false, 'a bulk load does not');
  assert.equal(mergeDue({ ...outgrown, deltaWrites: 256 }, true), true, 'the read bound holds in a bulk load too');
  assert.equal(mergeDue({ ...outgrown, deltaPostings: 10, dead: [] }, false), false);
});
