// Runs the system `git` with an argument array (never a shell string) and turns its failures into
// LoreError('connector_error') naming the connector and what to do. Never prompts for credentials.
import { execFile } from 'node:child_process';
import { LoreError } from '../../core/errors.ts';

export interface GitRunner {
  /** Runs `git <args>` in `cwd`; resolves stdout, rejects with a connector_error explaining the failure. */
  (args: readonly string[], cwd: string, options?: { signal?: AbortSignal | undefined }): Promise<string>;
}

/** The environment every git call gets: no terminal prompts (credentials come from helpers/agents), stable messages. */
export const GIT_ENV: NodeJS.ProcessEnv = { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', GIT_OPTIONAL_LOCKS: '0' };

export function createGitRunner(label: string, hint: (stderr: string, args: readonly string[]) => string): GitRunner {
  return (args, cwd, options) =>
    new Promise((resolve, reject) => {
      execFile(
        'git',
        args,
        { cwd, env: GIT_ENV, maxBuffer: 1 << 30, encoding: 'utf8', signal: options?.signal, windowsHide: true },
        (error, stdout, stderr) => {
          if (!error) return resolve(stdout);
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'ENOENT' && !stderr) {
            return reject(new LoreError('connector_error', `${label}: the git command was not found; install git and make sure it is on PATH`, { cause: error }));
          }
          if (error.name === 'AbortError') return reject(error);
          const detail = lastLines(stderr) || error.message;
          reject(new LoreError('connector_error', `${label}: git ${args[0] ?? ''} failed: ${detail}; ${hint(stderr, args)}`, { cause: error }));
        },
      );
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
