// Runs one call into extension code with a deadline: the callee gets an AbortSignal that fires at the
// time-out or when the caller's own signal does; the call then rejects with `timeout` (408) even if the
// extension ignores the signal. A thrown error keeps its `code` when the error table knows it; else script_error (500).
import { ERROR_TABLE, KbctxError, type ErrorCode } from '../domain/errors.ts';

/**
 * A plugin tool's, agent's or connector's deadline when its definition sets none (ADR 0250: `[extensions] timeout` is
 * the extensions plugin's, for its modules' calls).
 */
export const DEFAULT_CALL_TIMEOUT_SECS = 30;

export async function runWithDeadline<T>(
  label: string,
  timeoutSecs: number,
  outer: AbortSignal | undefined,
  call: (signal: AbortSignal) => Promise<T> | T,
): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let onOuterAbort: (() => void) | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new KbctxError('timeout', `${label} timed out after ${timeoutSecs} s`);
      reject(error);
      controller.abort(error);
    }, timeoutSecs * 1000);
    onOuterAbort = () => {
      const error = new KbctxError('timeout', `${label} was cancelled by the caller`);
      reject(error);
      controller.abort(error);
    };
    if (outer?.aborted) onOuterAbort();
    else outer?.addEventListener('abort', onOuterAbort, { once: true });
  });
  deadline.catch(() => undefined); // settled by the race below, or not at all once the call won
  try {
    return await Promise.race([Promise.resolve().then(() => call(controller.signal)), deadline]);
  } catch (error) {
    if (error instanceof KbctxError) throw error;
    // An extension signals a client fault by throwing an error whose `code` is in the error table.
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && Object.hasOwn(ERROR_TABLE, code))
      throw new KbctxError(code as ErrorCode, (error as Error).message ?? code, { cause: error });
    throw new KbctxError('script_error', `${label} failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  } finally {
    clearTimeout(timer);
    if (onOuterAbort) outer?.removeEventListener('abort', onOuterAbort);
  }
}
