// Runs the system `git` with an argument array (never a shell string) and turns its failures into
// KbctxError('connector_error') naming the connector and what to do. Never prompts for credentials;
// every call has a time-out that kills git's whole process group (git-process.ts).
import { KbctxError } from '../../core/api/plugin.ts';
import { startGit } from './git-process.ts';

export { GIT_ENV } from './git-env.ts';

export interface GitRunner {
  /** Runs `git <args>` in `cwd`; resolves stdout, rejects with a connector_error explaining the failure. */
  (args: readonly string[], cwd: string, options?: { signal?: AbortSignal | undefined }): Promise<string>;
}

export function createGitRunner(
  label: string,
  hint: (stderr: string, args: readonly string[]) => string,
  timeoutSecs: number,
): GitRunner {
  return (args, cwd, options) =>
    new Promise((resolve, reject) => {
      const git = startGit(args, cwd, { timeoutSecs, signal: options?.signal });
      const out: Buffer[] = [];
      let stderr = '';
      git.child.stdout.on('data', (d: Buffer) => out.push(d));
      git.child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      git.child.once('error', (error: NodeJS.ErrnoException) => {
        const why =
          error.code === 'ENOENT'
            ? 'the git command was not found; install git and make sure it is on PATH'
            : `cannot run git: ${error.message}`;
        reject(new KbctxError('connector_error', `${label}: ${why}`, { cause: error }));
      });
      git.child.once('close', (code, signal) => {
        if (code === 0) return resolve(Buffer.concat(out).toString('utf8'));
        if (options?.signal?.aborted)
          return reject(
            options.signal.reason instanceof Error ? options.signal.reason : new DOMException('aborted', 'AbortError'),
          );
        if (git.timedOut()) {
          const what = `git ${args[0] ?? ''} did not finish within ${timeoutSecs} s and was stopped`;
          return reject(
            new KbctxError(
              'connector_error',
              `${label}: ${what}; check that the remote answers, or raise timeout_secs for this connector`,
            ),
          );
        }
        const detail = lastLines(stderr) || `exit ${code ?? signal}`;
        reject(
          new KbctxError('connector_error', `${label}: git ${args[0] ?? ''} failed: ${detail}; ${hint(stderr, args)}`),
        );
      });
    });
}

/** The meaningful end of git's stderr (its last `fatal:`/`error:` lines), on one line. */
function lastLines(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('hint:'));
  const important = lines.filter((l) => /^(fatal|error):/.test(l));
  return (important.length > 0 ? important : lines.slice(-2)).join(' ');
}
