// The folder watcher (docs/adr/0080-folder-watcher.md): @parcel/watcher's prebuilt inotify/FSEvents
// backend, one watch per directory, excluded and .gitignored directories never entered. Network
// mounts, or no watch to be had (ENOSPC/EMFILE), fall back to polling, said once in the log.
// The only module that imports @parcel/watcher (lazily: other commands never load the addon).
import { readdirSync, statfsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { GlobFilter } from '../../../core/index.ts';
import type { FolderEvent } from '../change-batcher.ts';
import type { FolderWatch, WatchFolder, WatchSpec } from '../folder-watcher.ts';
import { loadGitignore } from './gitignore.ts';

const POLL_INTERVAL_MS = 5_000;
// statfs f_type of file systems whose change events do not cross machines (NFS, SMB/CIFS, 9p, FUSE).
const NETWORK_FS = new Set([0x6969, 0xff534d42, 0xfe534d42, 0x517b, 0x01021997, 0x65735546]);

export const watchFolderWithParcel: WatchFolder = async (spec, onEvent, log) => {
  const network = networkMount(spec.root);
  if (network) return startPolling(spec, onEvent, log, network);
  if (spec.poll) return startPolling(spec, onEvent, log, '[server] watch = "poll"');
  const filter = spec.filter;
  statSync(spec.root); // a missing root is the connector's error to report (thrown), not a reason to poll
  try {
    const watcher = await import('@parcel/watcher'); // no prebuilt binary for this platform: polling below
    const subscription = await watcher.subscribe(
      spec.root,
      (error, events) => {
        if (error) {
          log(`watch ${spec.root}: ${error.message}; rescanning`);
          onEvent({ relative: '', structural: true }); // events may have been dropped (queue overflow)
          return;
        }
        for (const e of events) {
          const event = toFolderEvent(spec.root, filter, e.path, e.type);
          if (event) onEvent(event);
        }
      },
      {
        ignore: ignoredDirectories(spec.root, filter),
        ...(process.platform === 'linux' ? { backend: 'inotify' as const } : {}),
      },
    );
    return { mode: 'events', close: () => subscription.unsubscribe() };
  } catch (error) {
    const message = (error as Error).message;
    return startPolling(
      spec,
      onEvent,
      log,
      `file events unavailable (${message}; on Linux raise fs.inotify.max_user_watches)`,
    );
  }
};

/** A change the connector could care about: an indexable file, or something that may be a directory. */
function toFolderEvent(
  root: string,
  filter: GlobFilter,
  absolute: string,
  type: 'create' | 'update' | 'delete',
): FolderEvent | null {
  const relative = path.relative(root, absolute).split(path.sep).join('/');
  if (relative === '' || relative.startsWith('..')) return null;
  if (filter.accepts(relative)) return { relative, structural: false };
  if (type === 'update') return null;
  // A created directory (or one moved in) brings files no event names; a deleted path the globs do not
  // accept may have been a directory: both mean "rescan" (cheap, and debounced).
  if (type === 'create')
    return statSync(absolute, { throwIfNoEntry: false })?.isDirectory() && !filter.prunes(relative)
      ? { relative, structural: true }
      : null;
  return filter.prunes(relative) ? null : { relative, structural: true };
}

/** `.git`, excluded and .gitignored directories present now (absolute paths): never watched. */
function ignoredDirectories(root: string, filter: GlobFilter): string[] {
  const gitignored = loadGitignore(root);
  const out: string[] = [];
  const visit = (dir: string, rel: string): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!entry.isDirectory()) continue;
      const relative = rel ? `${rel}/${entry.name}` : entry.name;
      const absolute = path.join(dir, entry.name);
      if (entry.name === '.git' || filter.prunes(relative) || gitignored(relative)) out.push(absolute);
      else visit(absolute, relative);
    }
  };
  visit(root, '');
  return out;
}

function startPolling(
  spec: WatchSpec,
  onEvent: (event: FolderEvent) => void,
  log: (line: string) => void,
  why: string,
): FolderWatch {
  log(`watch ${spec.root}: ${why}; polling: an incremental rescan every ${POLL_INTERVAL_MS / 1000} s`);
  const timer = setInterval(() => onEvent({ relative: '', structural: true }), POLL_INTERVAL_MS);
  timer.unref();
  return { mode: 'polling', close: () => Promise.resolve(clearInterval(timer)) };
}

function networkMount(root: string): string | null {
  try {
    const type = statfsSync(root).type;
    return NETWORK_FS.has(type)
      ? `a network or FUSE file system (type 0x${type.toString(16)}), whose file events are unreliable`
      : null;
  } catch {
    return null;
  }
}
