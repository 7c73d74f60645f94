// The sync progress display with several connectors running at once: one block, redrawn in place.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createProgress } from './progress.ts';

it('draws one line per connector and redraws the whole block in place', () => {
  const writes: string[] = [];
  const progress = createProgress(true, (t) => writes.push(t));
  progress.update({ connector: 'git:docs', done: 0, total: 2 });
  progress.update({ connector: 's3:kb', done: 3, total: 3 });
  progress.update({ connector: 'git:docs', done: 2, total: 2 });
  progress.done();
  const last = writes.at(-1) ?? '';
  assert.ok(last.startsWith('\x1b[2A'), 'moves up over the two lines drawn before');
  const lines = last.split('\n').filter(Boolean);
  assert.equal(lines.length, 2);
  assert.match(lines[0] ?? '', /git:docs\s+\[#{24}\] 2\/2 .*\/s {2}ETA /);
  assert.match(lines[1] ?? '', /s3:kb\s+\[#{24}\] 3\/3/);
});

it('prints a plain line periodically when not on a terminal', async () => {
  const writes: string[] = [];
  let wrote!: () => void;
  const written = new Promise<void>((resolve) => (wrote = resolve));
  const progress = createProgress(false, (t) => {
    writes.push(t);
    wrote();
  }, { everyMs: 1 });
  progress.update({ connector: 'git:docs', done: 1, total: 4 });
  await written;
  progress.done();
  assert.match(writes[0] ?? '', /^sync: git:docs 1\/4 \(25%\) {2}[\d.]+\/s {2}ETA /);
  assert.ok(!writes.join('').includes('\x1b'), 'no terminal escapes');
});

it('prints nothing when not on a terminal and lines are off (--json)', () => {
  const writes: string[] = [];
  const progress = createProgress(false, (t) => writes.push(t), { lines: false });
  progress.update({ connector: 'git:docs', done: 1, total: 1 });
  progress.done();
  assert.deepEqual(writes, []);
});
