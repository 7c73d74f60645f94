// The connector's private clone: cloned on first sync, then fetched and moved (detached, forced) to the
// remote branch's tip, so fast-forwards, force-pushes, a changed `url` and a changed `branch` all land
// on exactly the remote's state. Nothing else ever writes in this folder.
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { GitRunner } from './run-git.ts';

export interface CacheOptions {
  url: string;
  branch: string;
  /**
   * Skip historical file contents (a blobless partial clone); history itself stays, for commit times.
   * Honoured for network remotes only (see partialCloneFilter).
   */
  shallow: boolean;
  dir: string;
  /** Re-check out even when the tip did not move (`--full`). */
  force: boolean;
  signal?: AbortSignal | undefined;
}

/** Brings the cache to the remote branch's tip and returns that commit's sha. */
export async function updateCache(git: GitRunner, o: CacheOptions): Promise<string> {
  const remoteRef = `refs/remotes/origin/${o.branch}`;
  const filter = partialCloneFilter(o.url, o.shallow);
  if (!existsSync(path.join(o.dir, '.git'))) return cloneInto(git, o, filter, remoteRef);
  const current = (await git(['config', '--get', 'remote.origin.url'], o.dir).catch(() => '')).trim();
  if (current !== o.url) await git(['remote', 'set-url', 'origin', o.url], o.dir);
  const fetch = ['fetch', '--quiet', '--no-tags', '--no-auto-maintenance', '--no-write-fetch-head', ...filter];
  await git([...fetch, 'origin', `+refs/heads/${o.branch}:${remoteRef}`], o.dir, { signal: o.signal });
  // One process for both: the fetched tip and the commit checked out now.
  const [tip = '', head = ''] = (await git(['rev-parse', `${remoteRef}^{commit}`, 'HEAD'], o.dir)).trim().split('\n');
  if (o.force || head !== tip)
    await git(['checkout', '--quiet', '--force', '--detach', tip], o.dir, { signal: o.signal });
  return tip;
}

/** Clones and checks out into a temporary sibling, then renames: an interrupted clone never looks like a cache. */
async function cloneInto(git: GitRunner, o: CacheOptions, filter: string[], remoteRef: string): Promise<string> {
  const parent = path.dirname(o.dir);
  await mkdir(parent, { recursive: true });
  const tmp = `${o.dir}.partial-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  await rm(o.dir, { recursive: true, force: true });
  try {
    const args = [
      'clone',
      '--quiet',
      '--no-checkout',
      '--no-tags',
      '--single-branch',
      '--branch',
      o.branch,
      ...filter,
      '--',
      o.url,
      tmp,
    ];
    await git(args, parent, { signal: o.signal });
    const tip = (await git(['rev-parse', `${remoteRef}^{commit}`], tmp)).trim();
    await git(['checkout', '--quiet', '--force', '--detach', tip], tmp, { signal: o.signal });
    await rename(tmp, o.dir);
    return tip;
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/**
 * `--filter=blob:none` only for network remotes. A local source (a path or `file://`) gains nothing
 * from it, and when that source is itself shallow or partial the clone's lazy fetches of missing
 * blobs chain forever (issue 10, defect 6), so local sources are always cloned in full.
 */
export function partialCloneFilter(url: string, shallow: boolean): string[] {
  const local = url.toLowerCase().startsWith('file:') || !/^[a-z][a-z0-9+.-]*:\/\/|^[^/:]+@[^/:]+:/i.test(url);
  return shallow && !local ? ['--filter=blob:none'] : [];
}

/** Removes sibling folders of `dir` (caches an earlier `url` of the same connector left behind). */
export async function removeStaleCaches(dir: string): Promise<void> {
  const parent = path.dirname(dir);
  const keep = path.basename(dir);
  const names = await readdir(parent).catch(() => [] as string[]);
  await Promise.all(
    names
      .filter((n) => n !== keep && !n.includes('.partial-'))
      .map((n) => rm(path.join(parent, n), { recursive: true, force: true })),
  );
}
