// Host module `sleep(seconds)`: fractions allowed. The main thread's time-out ends a long sleep
// by stopping the worker; nothing here needs to watch the deadline.
import { setTimeout as delay } from 'node:timers/promises';

export async function sleep(seconds: unknown): Promise<void> {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0)
    throw new Error('sleep: expected a number of seconds ≥ 0');
  await delay(seconds * 1000);
}
