// Starts a `git` child in its own process group with a hard time-out: when the time passes (or the
// caller aborts), the whole group is killed, including the fetches git forks for itself (lazy fetches
// of a partial clone), so a sync can never hang forever or leave git processes behind.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { GIT_ENV } from './git-env.ts';

export interface GitProcess {
  child: ChildProcessByStdio<null, Readable, Readable>;
  /** True once the time-out fired and the group was killed. */
  timedOut(): boolean;
}

const liveGroups = new Set<number>();
let exitHookInstalled = false;

export function startGit(
  args: readonly string[],
  cwd: string,
  options: { timeoutSecs: number; signal?: AbortSignal | undefined },
): GitProcess {
  installExitHook();
  // detached: a new process group (pgid = child pid), so one kill reaches every descendant.
  const child = spawn('git', args, {
    cwd,
    env: GIT_ENV,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    windowsHide: true,
  });
  let timedOut = false;
  const pid = child.pid;
  const killGroup = (): void => {
    if (pid === undefined) return;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  if (pid !== undefined) liveGroups.add(pid);
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup();
  }, options.timeoutSecs * 1000);
  const onAbort = (): void => killGroup();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) killGroup();
  child.once('close', () => {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    // Descendants may outlive the leader (git forks fetches): end the group with it.
    killGroup();
    if (pid !== undefined) liveGroups.delete(pid);
  });
  child.once('error', () => clearTimeout(timer));
  return { child, timedOut: () => timedOut };
}

/** On exit (Ctrl-C, a fatal error), take every git group still running down with kbctx. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const pid of liveGroups) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });
}
