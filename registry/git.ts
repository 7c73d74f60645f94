// The git operations registries need, through the system `git` with argument arrays (never a shell).
// Credentials come from git's own configuration. Failures become KbctxErrors that say what to do.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { KbctxError } from '../core/domain/errors.ts';

const TIMEOUT_MS = 120_000;

function git(args: string[], cwd?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      args,
      { cwd, timeout: TIMEOUT_MS, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } },
      (error, stdout, stderr) => {
        if (error) reject(new Error((stderr || error.message).trim()));
        else resolve(stdout);
      },
    );
  });
}

export const isGitRepo = (dir: string): boolean => existsSync(path.join(dir, '.git'));

export async function cloneRepo(url: string, branch: string | null, target: string): Promise<void> {
  if (existsSync(target)) throw new KbctxError('conflict', `cannot clone into ${target}: the folder already exists`);
  mkdirSync(path.dirname(target), { recursive: true });
  try {
    await git(['clone', '--depth', '1', ...(branch ? ['--branch', branch] : []), '--', url, target]);
  } catch (error) {
    throw new KbctxError(
      'upstream_error',
      `could not clone ${url}: ${(error as Error).message.split('\n').at(-1)}; check the URL and your network ` +
        `(git credentials come from git's own configuration)`,
      { cause: error },
    );
  }
}

/** Files with uncommitted changes (empty when clean). */
export async function localChanges(dir: string): Promise<string[]> {
  const out = await git(['status', '--porcelain'], dir);
  return out
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => l.slice(3));
}

/** Fast-forward to the remote branch; returns the commits moved (old..new), or null when up to date. */
export async function pullFastForward(dir: string): Promise<{ from: string; to: string } | null> {
  const before = (await git(['rev-parse', 'HEAD'], dir)).trim();
  try {
    await git(['pull', '--ff-only', '--quiet'], dir);
  } catch (error) {
    throw new KbctxError('upstream_error', `could not update ${dir}: ${(error as Error).message.split('\n').at(-1)}`, {
      cause: error,
    });
  }
  const after = (await git(['rev-parse', 'HEAD'], dir)).trim();
  return before === after ? null : { from: before.slice(0, 7), to: after.slice(0, 7) };
}

/** The installed git's version line, or null when git cannot be run. */
export async function gitVersion(): Promise<string | null> {
  try {
    return (await git(['--version'])).trim();
  } catch {
    return null;
  }
}

/** The commit checked out in `dir`. */
export async function headCommit(dir: string): Promise<string> {
  return (await git(['rev-parse', 'HEAD'], dir)).trim();
}
