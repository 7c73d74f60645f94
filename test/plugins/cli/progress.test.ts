// The progress display of sync and export: one block of bars redrawn in place on a terminal, plain
// periodic lines otherwise.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { SyncProgress } from '../../../core/app/sync.ts';
import { createProgress, progressEveryMs, type ProgressOptions } from '../../../plugins/cli/progress.ts';

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

/** What a non-terminal progress writes first (everyMs 1) after one update. */
async function firstPlainWrite(options: ProgressOptions, p: SyncProgress): Promise<string> {
  const writes: string[] = [];
  let wrote!: () => void;
  const written = new Promise<void>((resolve) => (wrote = resolve));
  const progress = createProgress(
    false,
    (t) => {
      writes.push(t);
      wrote();
    },
    { everyMs: 1, ...options },
  );
  progress.update(p);
  await written;
  progress.done();
  return writes[0] ?? '';
}

it('prints a plain line periodically when not on a terminal', async () => {
  const line = await firstPlainWrite({}, { connector: 'git:docs', done: 1, total: 4 });
  assert.match(line, /^sync: git:docs 1\/4 \(25%\) {2}[\d.]+\/s {2}ETA /);
  assert.ok(!line.includes('\x1b'), 'no terminal escapes');
});

it('prefixes the plain lines with the label', async () => {
  const line = await firstPlainWrite({ label: 'export' }, { connector: 'documents+chunks', done: 150, total: 600 });
  assert.match(line, /^export: documents\+chunks 150\/600 \(25%\) {2}[\d.]+\/s {2}ETA /);
});

it('prints nothing when not on a terminal and lines are off (--json)', () => {
  const writes: string[] = [];
  const progress = createProgress(false, (t) => writes.push(t), { lines: false });
  progress.update({ connector: 'git:docs', done: 1, total: 1 });
  progress.done();
  assert.deepEqual(writes, []);
});

it('draws a single task (the export) as one bar with count, rate and ETA, finished at done()', () => {
  const writes: string[] = [];
  const progress = createProgress(true, (t) => writes.push(t), { label: 'export' });
  progress.update({ connector: 'documents+chunks', done: 0, total: 600 });
  progress.update({ connector: 'documents+chunks', done: 300, total: 600 });
  progress.done();
  const [first, last] = [writes[0] ?? '', writes.at(-1) ?? ''];
  assert.ok(first.startsWith('\x1b[2K') && last.startsWith('\x1b[1A\x1b[2K'), 'clears the line, then redraws over it');
  assert.match(first.slice(4), /^documents\+chunks +\[\.{24}\] 0\/600 {2}0\.0\/s {2}ETA \?\n$/);
  assert.match(last.slice(8), /^documents\+chunks +\[#{12}\.{12}\] 300\/600 {2}[\d.]+\/s {2}ETA (\d+s|\?)\n$/);
});

it('takes the plain-line interval from KBCTX_PROGRESS_INTERVAL_MS, else the default', () => {
  assert.equal(progressEveryMs({ KBCTX_PROGRESS_INTERVAL_MS: '20' }), 20);
  assert.equal(progressEveryMs({}), undefined);
  assert.equal(progressEveryMs({ KBCTX_PROGRESS_INTERVAL_MS: 'soon' }), undefined);
  assert.equal(progressEveryMs({ KBCTX_PROGRESS_INTERVAL_MS: '0' }), undefined);
});
