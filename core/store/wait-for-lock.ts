// Waiting for a connector lock, whatever holds it (a lock file, a PostgreSQL advisory lock): retries
// `acquire` while it throws KbctxError `conflict`, telling `onWait` once, until `timeoutMs` has passed.
import { KbctxError } from '../domain/errors.ts';
import type { ReleaseLock } from './store.ts';

const POLL_MS = 200;

export async function waitForLock(
  acquire: () => Promise<ReleaseLock>,
  options: { timeoutMs: number; onWait?: ((message: string) => void) | undefined },
): Promise<ReleaseLock> {
  const deadline = Date.now() + options.timeoutMs;
  let told = false;
  for (;;) {
    try {
      return await acquire();
    } catch (error) {
      if (!(error instanceof KbctxError) || error.code !== 'conflict' || Date.now() >= deadline) throw error;
      if (!told) options.onWait?.(`waiting: ${error.message.split(';')[0]}`);
      told = true;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
}
