// Per-token fairness (ADR 0224) with a hand-driven clock: max_concurrent counts requests until released,
// requests_per_minute is a bucket of one minute's worth refilled steadily; refusals say how long to wait.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { KbctxError } from '../../../core/domain/errors.ts';
import { TokenBucket } from '../../../plugins/transport-http/token-bucket.ts';
import { TokenLimiter } from '../../../plugins/transport-http/token-limits.ts';
import type { ResolvedToken } from '../../../plugins/transport-http/token-set.ts';

const token = (name: string, maxConcurrent: number | null, requestsPerMinute: number | null): ResolvedToken => ({
  name,
  digest: Buffer.alloc(32),
  scope: {},
  limits: { maxConcurrent, requestsPerMinute },
});

const retryAfter = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof KbctxError && error.code === 'rate_limited', String(error));
    return error.details?.['retry_after'];
  }
  assert.fail('expected rate_limited');
};

it('a bucket lets a minute’s worth through at once, then one more per 60/n seconds', () => {
  const bucket = new TokenBucket(6, 0);
  for (let i = 0; i < 6; i++) assert.equal(bucket.take(0), 0);
  assert.equal(bucket.take(0), 10); // one request every 10 s
  assert.equal(bucket.take(4_000), 6);
  assert.equal(bucket.take(10_000), 0);
  assert.equal(bucket.take(10_000), 10);
  assert.equal(bucket.take(10 * 60_000), 0); // refilled, never beyond the minute's worth
  for (let i = 0; i < 5; i++) assert.equal(bucket.take(10 * 60_000), 0);
  assert.ok(bucket.take(10 * 60_000) > 0);
});

it('max_concurrent refuses the request past the limit until one is released, and names the token', () => {
  const limiter = new TokenLimiter(() => 0);
  const a = token('agent-a', 2, null);
  const first = limiter.admit(a);
  limiter.admit(a);
  assert.equal(
    retryAfter(() => limiter.admit(a)),
    1,
  );
  assert.throws(() => limiter.admit(a), /token 'agent-a' is over its max_concurrent \(2 requests at once\)/);
  first();
  first(); // a second release of the same request changes nothing
  const third = limiter.admit(a);
  assert.equal(
    retryAfter(() => limiter.admit(a)),
    1,
  );
  third();
  // another token is counted apart
  const b = token('agent-b', 1, null);
  limiter.admit(b);
  assert.equal(
    retryAfter(() => limiter.admit(b)),
    1,
  );
});

it('requests_per_minute refuses with the seconds until the next request is allowed; a refused one uses nothing', () => {
  let now = 0;
  const limiter = new TokenLimiter(() => now);
  const a = token('a', 1, 2);
  limiter.admit(a)();
  limiter.admit(a)();
  assert.equal(
    retryAfter(() => limiter.admit(a)),
    30,
  );
  now = 29_000;
  assert.equal(
    retryAfter(() => limiter.admit(a)),
    1,
  );
  now = 30_000;
  const held = limiter.admit(a);
  now = 90_000;
  assert.equal(
    retryAfter(() => limiter.admit(a)),
    1,
  ); // max_concurrent: the bucket is not touched
  held();
  limiter.admit(a)();
  limiter.admit(a)();
  assert.ok((retryAfter(() => limiter.admit(a)) as number) > 0);
});

it('a refusal is held HOLD_MS before it is answered; past HELD_MAX held for a token, at once', async () => {
  const { HELD_MAX, HOLD_MS } = await import('../../../plugins/transport-http/token-limits.ts');
  const limiter = new TokenLimiter(() => 0);
  const busy = token('busy', 1, null);
  limiter.admit(busy);
  assert.equal(
    retryAfter(() => limiter.admit(busy)),
    1,
  );
  const answered: number[] = [];
  const timers = Array.from({ length: HELD_MAX }, (_, i) => limiter.holdRefusal('busy', () => answered.push(i)));
  assert.ok(timers.every((t) => t !== null));
  assert.equal(answered.length, 0, 'held refusals are not answered yet');
  assert.equal(
    limiter.holdRefusal('busy', () => answered.push(-1)),
    null,
  );
  assert.equal(answered.join(), '-1', 'one past HELD_MAX is answered at once');
  await new Promise((resolve) => setTimeout(resolve, HOLD_MS + 50));
  assert.equal(answered.length, HELD_MAX + 1, 'every held refusal was answered after the pause');
  // The hold count went back down: the next refusal is held again.
  const again = limiter.holdRefusal('busy', () => answered.push(-2));
  assert.notEqual(again, null);
  clearTimeout(again!);
});
