// Per-token fairness on one listener (ADR 0224): a token's `max_concurrent` (requests answered at once) and
// `requests_per_minute` (token-bucket.ts). Checked in the first request hook, after auth and before the body is
// read; one request over either is 429 `rate_limited` naming the token, with the seconds to wait (Retry-After).
// A refused request's answer is held for HOLD_MS (at most HELD_MAX per token at once; more are answered at
// once): a client that retries without waiting then sends a few requests a second per connection, not
// thousands, so refusing it does not take the CPU its neighbours need (ADR 0224, bench:fairness).
import { KbctxError } from '../../core/api/plugin.ts';
import { TokenBucket } from './token-bucket.ts';
import type { ResolvedToken } from './token-set.ts';

interface TokenState {
  active: number;
  bucket: TokenBucket | null;
  /** Refusals being held (not yet answered). */
  held: number;
}

/** How long a refusal is held, and how many of one token's are held at once. */
export const HOLD_MS = 500;
export const HELD_MAX = 64;

/** What a request admitted by `admit` calls once when its answer is done (finished or the client went away). */
export type Release = () => void;

export class TokenLimiter {
  private readonly states = new Map<string, TokenState>();
  private readonly now: () => number;

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  /** True when some token has a limit (no hook is added otherwise). */
  static needed(tokens: readonly ResolvedToken[]): boolean {
    return tokens.some((t) => t.limits.maxConcurrent !== null || t.limits.requestsPerMinute !== null);
  }

  /** Admits one request of `token`, or throws rate_limited (details.retry_after: whole seconds). */
  admit(token: ResolvedToken): Release {
    const { maxConcurrent, requestsPerMinute } = token.limits;
    let state = this.states.get(token.name);
    if (!state) {
      state = {
        active: 0,
        bucket: requestsPerMinute === null ? null : new TokenBucket(requestsPerMinute, this.now()),
        held: 0,
      };
      this.states.set(token.name, state);
    }
    // Concurrency first: a request refused for it does not use up the minute's allowance.
    if (maxConcurrent !== null && state.active >= maxConcurrent)
      throw limited(token.name, `max_concurrent (${maxConcurrent} requests at once)`, 1);
    const wait = state.bucket?.take(this.now()) ?? 0;
    if (wait > 0) throw limited(token.name, `requests_per_minute (${requestsPerMinute})`, wait);
    state.active += 1;
    let released = false;
    const held = state;
    return () => {
      if (released) return;
      released = true;
      held.active -= 1;
    };
  }

  /**
   * Holds a refusal of `name` for HOLD_MS, then calls `answer`; answers at once when HELD_MAX are held already.
   * Returns the timer (null: answered at once).
   */
  holdRefusal(name: string, answer: () => void): NodeJS.Timeout | null {
    const state = this.states.get(name);
    if (!state || state.held >= HELD_MAX) {
      answer();
      return null;
    }
    state.held += 1;
    return setTimeout(() => {
      state.held -= 1;
      answer();
    }, HOLD_MS);
  }
}

function limited(name: string, limit: string, seconds: number): KbctxError {
  return new KbctxError('rate_limited', `token '${name}' is over its ${limit}; retry after ${seconds} s`, {
    details: { retry_after: seconds },
  });
}
