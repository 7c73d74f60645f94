// The query log's writer (ADR 0220) on real files: rotation at the size limit keeping `keep` old files,
// and a path that cannot be written warns once, never throws; the log's conversion to queries and qrels.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, it } from 'node:test';
import { LogWriter } from '../../../plugins/query-log/log-writer.ts';
import { logToBeir } from '../../../plugins/query-log/log-to-beir.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'kbctx-query-log-'));
after(() => rmSync(dir, { recursive: true, force: true }));

it('rotates before a line would pass max_bytes: file, file.1, file.2, the oldest dropped past keep', async () => {
  const file = path.join(dir, 'rotate', 'q.jsonl');
  const warnings: string[] = [];
  const writer = new LogWriter({ file, maxBytes: 100, keep: 2, warn: (m) => warnings.push(m) });
  const line = (i: number): string => JSON.stringify({ i, pad: 'x'.repeat(30) }); // 42 bytes + newline
  for (let i = 0; i < 9; i++) writer.append(line(i));
  await writer.flush();
  assert.deepEqual(warnings, []);
  // Two lines (86 bytes) fit in 100; the third rotates. 9 lines: [0 1] [2 3] [4 5] [6 7] [8] → keep the last 3 files.
  assert.equal(readFileSync(file, 'utf8'), `${line(8)}\n`);
  assert.equal(readFileSync(`${file}.1`, 'utf8'), `${line(6)}\n${line(7)}\n`);
  assert.equal(readFileSync(`${file}.2`, 'utf8'), `${line(4)}\n${line(5)}\n`);
  assert.equal(existsSync(`${file}.3`), false);
  for (const f of [file, `${file}.1`, `${file}.2`]) assert.ok(statSync(f).size <= 100);
});

it('keep = 0 starts the file over at the limit', async () => {
  const file = path.join(dir, 'q0.jsonl');
  const writer = new LogWriter({ file, maxBytes: 10, keep: 0, warn: () => assert.fail('no warning') });
  writer.append('first line');
  writer.append('second');
  await writer.flush();
  assert.equal(readFileSync(file, 'utf8'), 'second\n');
  assert.equal(existsSync(`${file}.1`), false);
});

it('a file that cannot be written warns once for a run of failures, and again after a success', async () => {
  const blocker = path.join(dir, 'blocker');
  writeFileSync(blocker, 'not a folder');
  const warnings: string[] = [];
  const file = path.join(blocker, 'q.jsonl');
  const writer = new LogWriter({ file, maxBytes: 1000, keep: 1, warn: (m) => warnings.push(m) });
  for (let i = 0; i < 5; i++) {
    writer.append(`line ${i}`);
    await writer.flush();
  }
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!, /cannot write the query log .*blocker\/q\.jsonl/);
  rmSync(blocker);
  writer.append('written');
  await writer.flush();
  assert.equal(readFileSync(file, 'utf8'), 'written\n');
  rmSync(blocker, { recursive: true });
  writeFileSync(blocker, 'a file again');
  writer.append('lost');
  await writer.flush();
  assert.equal(warnings.length, 2);
});

it(
  'logToBeir: one query per text with its latest results ' + 'graded by rank; redacted, empty and cut lines counted',
  () => {
    const log = [
      { query: 'otters', results: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] },
      { query_sha256: 'ab12', results: [{ id: 'a' }] },
      { query: 'owls', results: [] },
      { query: 'dams', results: [{ id: 'd' }] },
      { query: 'otters', results: [{ id: 'b' }, { id: 'a' }] },
    ]
      .map((l) => JSON.stringify(l))
      .join('\n');
    const set = logToBeir(`${log}\n{"query": "cut sh`, 2);
    assert.deepEqual(set.queries, [
      { _id: 'q1', text: 'dams' },
      { _id: 'q2', text: 'otters' },
    ]);
    assert.deepEqual(set.qrels, [
      ['q1', 'd', 2],
      ['q2', 'b', 2],
      ['q2', 'a', 1],
    ]);
    assert.deepEqual([set.lines, set.redacted, set.empty, set.malformed], [6, 1, 1, 1]);
  },
);
