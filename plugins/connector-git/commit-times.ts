// Per-file last commit times from ONE streamed `git log` pass (never a process per file). The walk
// stops as soon as every wanted path has been seen, so a recent-heavy history is read only in part.
import { KbctxError } from '../../core/api/plugin.ts';
import { startGit } from './git-process.ts';

const HEADER = '\x01';

/**
 * Maps each wanted repository path to the ISO time of the newest commit (in `git log` order from
 * `commit`) that changed it. Paths not found in the history are left out.
 */
export function lastCommitTimes(
  repoDir: string,
  commit: string,
  pathspec: string,
  wanted: ReadonlySet<string>,
  label: string,
  timeoutSecs: number,
): Promise<Map<string, string>> {
  const times = new Map<string, string>();
  if (wanted.size === 0) return Promise.resolve(times);
  // --no-renames: rename detection would read blobs (and download them in a partial clone).
  const args = ['log', '-z', '--no-renames', '--name-only', `--format=${HEADER}%ct`, commit, '--', pathspec];
  return new Promise((resolve, reject) => {
    const git = startGit(args, repoDir, { timeoutSecs });
    const child = git.child;
    let current = '';
    let pending = '';
    let stderr = '';
    let stopped = false;
    const take = (token: string): void => {
      const t = token.startsWith('\n') ? token.slice(1) : token;
      if (t.startsWith(HEADER)) current = new Date(Number(t.slice(1)) * 1000).toISOString();
      else if (t && current && wanted.has(t) && !times.has(t)) times.set(t, current);
    };
    child.stdout.setEncoding('utf8').on('data', (data: string) => {
      if (stopped) return;
      const tokens = (pending + data).split('\0');
      pending = tokens.pop() ?? '';
      for (const token of tokens) take(token);
      if (times.size >= wanted.size) {
        stopped = true;
        child.kill(); // everything found: the rest of the history is not needed
      }
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', (error) =>
      reject(new KbctxError('connector_error', `${label}: cannot run git log: ${error.message}`, { cause: error })),
    );
    child.on('close', (code) => {
      if (!stopped && pending) take(pending);
      if (stopped || code === 0) resolve(times);
      else if (git.timedOut())
        reject(
          new KbctxError(
            'connector_error',
            `${label}: git log did not finish within ${timeoutSecs} s ` +
              `and was stopped; raise timeout_secs for this connector`,
          ),
        );
      else
        reject(
          new KbctxError(
            'connector_error',
            `${label}: git log failed: ${stderr.trim() || `exit ${code}`}; ` +
              `run kbctx sync again, or remove the git cache folder`,
          ),
        );
    });
  });
}
