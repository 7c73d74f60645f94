// The fair queue alone: a free worker goes to the waiting key holding the fewest, oldest first among
// equals, and never to a key already at its limit.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FairQueue } from '../../../../../plugins/lua-bridge/scripting/runtime/fair-queue.ts';

describe('FairQueue', () => {
  it('serves the key holding the fewest workers, then arrival order; skips keys at their limit', () => {
    const q = new FairQueue<{ key: string; n: number }>(2);
    q.hold('tool:spin');
    q.hold('tool:spin');
    q.hold('tool:slow');
    for (const [key, n] of [
      ['tool:spin', 1],
      ['tool:slow', 2],
      ['tool:ok', 3],
      ['tool:ok', 4],
    ] as const)
      q.push({ key, n });
    assert.deepEqual(
      q.eligible().map((w) => w.n),
      [2, 3, 4],
    );
    assert.equal(q.take()?.n, 3);
    q.hold('tool:ok');
    assert.equal(q.take()?.n, 2, 'ties go to the oldest');
    q.hold('tool:slow');
    assert.equal(q.take()?.n, 4);
    assert.equal(q.take(), undefined, 'tool:spin holds its limit');
    q.unhold('tool:spin');
    assert.equal(q.take()?.n, 1);
    assert.equal(q.length, 0);
  });
});
