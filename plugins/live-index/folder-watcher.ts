// The watcher contract the live index uses (implemented in watch/): report changes under a root,
// leaving out what the connector never indexes, and say whether it fell back to polling.
import type { WatchSpec } from './api.ts';
import type { FolderEvent } from './change-batcher.ts';

export type { WatchSpec };

export interface FolderWatch {
  /** 'events': OS file events (inotify …); 'polling': periodic stat (network mounts, watch limit reached). */
  readonly mode: 'events' | 'polling';
  close(): Promise<void>;
}

/**
 * Starts watching; resolves once the initial tree is being watched (changes after that are reported).
 * Falls back to polling by itself, logging one line saying why. Rejects only when the root cannot be read.
 */
export type WatchFolder = (
  spec: WatchSpec,
  onEvent: (event: FolderEvent) => void,
  log: (line: string) => void,
) => Promise<FolderWatch>;
