// The folder watcher (docs/adr/0080): chokidar, one inotify watch per directory, with excluded and
// .gitignored directories never entered. Network mounts, or running out of watches (ENOSPC/EMFILE),
// switch to polling, said once in the log. The only module that imports chokidar.
import { statfsSync } from 'node:fs';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { createGlobFilter } from '../connectors/globs.ts';
import type { FolderEvent } from '../live/change-batcher.ts';
import type { FolderWatch, WatchFolder, WatchSpec } from '../live/folder-watcher.ts';
import { loadGitignore } from './gitignore.ts';

const POLL_INTERVAL_MS = 2_000;
// statfs f_type of file systems whose change events do not cross machines (NFS, SMB/CIFS, 9p, FUSE).
const NETWORK_FS = new Set([0x6969, 0xff534d42, 0xfe534d42, 0x517b, 0x01021997, 0x65735546]);

export const watchFolderWithChokidar: WatchFolder = async (spec, onEvent, log) => {
  const reason = networkMount(spec.root);
  if (reason) log(`watch ${spec.root}: ${reason}; polling every ${POLL_INTERVAL_MS / 1000} s`);
  let current = await start(spec, onEvent, reason !== null);
  let fallback: Promise<void> | null = null;
  const handle: FolderWatch & { mode: 'events' | 'polling' } = {
    mode: reason ? 'polling' : 'events',
    close: async () => {
      await fallback;
      await current.close();
    },
  };
  const onError = (error: unknown): void => {
    const code = (error as NodeJS.ErrnoException).code;
    if (handle.mode === 'polling' || (code !== 'ENOSPC' && code !== 'EMFILE')) {
      log(`watch ${spec.root}: ${(error as Error).message}`);
      return;
    }
    handle.mode = 'polling';
    log(`watch ${spec.root}: out of file watches (${code}; raise fs.inotify.max_user_watches); polling every ${POLL_INTERVAL_MS / 1000} s`);
    fallback = (async () => {
      await current.close();
      current = await start(spec, onEvent, true);
      onEvent({ relative: '', structural: true }); // events may have been lost meanwhile
    })();
  };
  current.on('error', onError);
  return handle;
};

async function start(spec: WatchSpec, onEvent: (event: FolderEvent) => void, usePolling: boolean): Promise<FSWatcher> {
  const filter = createGlobFilter(spec.includeGlobs, spec.excludeGlobs);
  const gitignored = loadGitignore(spec.root);
  const relativeOf = (p: string): string => path.relative(spec.root, p).split(path.sep).join('/');
  const watcher = watch(spec.root, {
    ignoreInitial: true,
    followSymlinks: spec.followSymlinks,
    usePolling,
    interval: POLL_INTERVAL_MS,
    binaryInterval: POLL_INTERVAL_MS,
    atomic: false, // every event is re-checked by stat, so a temp-write-and-rename needs no special case
    ignored: (p, stats) => {
      const rel = relativeOf(p);
      if (rel === '' || rel.startsWith('..')) return false;
      if (rel === '.git' || rel.endsWith('/.git')) return true;
      // Files the connector would not index are not reported; directories it never enters are not watched.
      if (stats?.isFile()) return !filter.accepts(rel);
      return filter.prunes(rel) || gitignored(rel);
    },
  });
  const file = (p: string): void => onEvent({ relative: relativeOf(p), structural: false });
  const dir = (p: string): void => onEvent({ relative: relativeOf(p), structural: true });
  watcher.on('add', file).on('change', file).on('unlink', file).on('addDir', dir).on('unlinkDir', dir);
  await new Promise<void>((resolve, reject) => {
    watcher.once('ready', resolve);
    watcher.once('error', reject);
  });
  return watcher;
}

function networkMount(root: string): string | null {
  try {
    const type = statfsSync(root).type;
    return NETWORK_FS.has(type) ? `network or FUSE file system (type 0x${type.toString(16)}): file events are unreliable` : null;
  } catch {
    return null;
  }
}
