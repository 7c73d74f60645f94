// Real git repositories for tests, built with the system git: commits at fixed times, branches, bare remotes.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export function git(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_TERMINAL_PROMPT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** A new repository with one branch `main` and a committer identity. */
export function initRepo(dir: string): string {
  mkdirSync(dir, { recursive: true });
  git(dir, ['init', '--quiet', '--initial-branch=main']);
  git(dir, ['config', 'user.email', 'test@example.com']);
  git(dir, ['config', 'user.name', 'kbctx Test']);
  git(dir, ['config', 'commit.gpgsign', 'false']);
  return dir;
}

/** Writes (string) or deletes (null) files, then commits them all at `isoDate`. Returns the commit sha. */
export function commit(repo: string, files: Record<string, string | null>, message: string, isoDate: string): string {
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(repo, rel);
    if (content === null) rmSync(file, { force: true });
    else {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, content);
    }
  }
  git(repo, ['add', '--all']);
  git(repo, ['commit', '--quiet', '--allow-empty', '-m', message], {
    GIT_AUTHOR_DATE: isoDate,
    GIT_COMMITTER_DATE: isoDate,
  });
  return git(repo, ['rev-parse', 'HEAD']).trim();
}

/** A bare clone of `repo` at `dir` (a "remote" reachable by file://). */
export function bareClone(repo: string, dir: string): string {
  git(path.dirname(dir), ['clone', '--quiet', '--bare', repo, dir]);
  return dir;
}
