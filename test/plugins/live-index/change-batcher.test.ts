import assert from 'node:assert/strict';
import { it } from 'node:test';
import { ChangeBatcher } from '../../../plugins/live-index/change-batcher.ts';
import type { ChangeHint } from '../../../plugins/live-index/connector-runner.ts';

function batcher(maxPaths = 10) {
  const flushed: ChangeHint[] = [];
  let notify: () => void = () => {};
  const b = new ChangeBatcher({
    quietMs: 20,
    burstQuietMs: 40,
    burstPaths: 100,
    maxWaitMs: 60_000,
    maxPaths,
    flush: (h) => (flushed.push(h), notify()),
  });
  return { b, flushed, next: () => new Promise<void>((resolve) => (notify = resolve)) };
}

it('a burst of file events becomes one batch of distinct paths', async () => {
  const { b, flushed, next } = batcher();
  const done = next();
  for (const p of ['a.md', 'b.md', 'a.md']) b.add({ relative: p, structural: false });
  await done;
  assert.deepEqual(flushed, [{ paths: ['a.md', 'b.md'] }]);
});

it('a directory event or more paths than maxPaths becomes a full rescan', async () => {
  const dir = batcher();
  let done = dir.next();
  dir.b.add({ relative: 'a.md', structural: false });
  dir.b.add({ relative: 'notes', structural: true });
  await done;
  assert.deepEqual(dir.flushed, ['all']);

  const many = batcher(3);
  done = many.next();
  for (let i = 0; i < 5000; i++) many.b.add({ relative: `f${i}.md`, structural: false });
  await done;
  assert.deepEqual(many.flushed, ['all']);
});
