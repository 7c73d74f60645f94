// The per-replica read mirror: a real SQLite store (opened through `createStore.for('sqlite')`, see index.ts) in a
// cache file, plus the PostgreSQL epoch and version it reflects. Reads are answered here, so keyword ranking is exactly
// SQLite's BM25 and vectors use its ANN cache.
//
// Crash safety: the state (epoch, version) lives in `<file>.pg.json`, replaced atomically (rename) only
// after the mirror's own commit; a kill mid-apply leaves it behind the data, never ahead, and applying
// again is idempotent. A cache file in use by another process takes the next slot: `<file>-2`, `-3`, ….
import { KbctxError, type ReleaseLock, type Store } from '../../core/api/plugin.ts';
import { lockConnector } from '../store-sqlite/api.ts';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface MirrorState {
  epoch: string;
  /** The PostgreSQL version the mirror holds every change up to (bigint as text). */
  version: string;
  /** kbctx_commits.token of that version (null for version 0): tells a rewound history from ours. */
  token: string | null;
}

const MAX_SLOTS = 32;

export class Mirror {
  /** The file in use (after slot selection), or `:memory:`. */
  readonly file: string;
  private readonly openLocal: (file: string) => Store;
  private readonly unlock: ReleaseLock;
  private memoryState: MirrorState | null = null;
  store: Store;
  /** Bumped at every wipe: part of the generation, as a rebuilt mirror restarts SQLite's counters. */
  incarnation = 0;
  /** Documents applied by catch-ups that deferred compaction since the last one (catch-up.ts). */
  deferred = 0;

  private constructor(file: string, openLocal: (file: string) => Store, unlock: ReleaseLock) {
    this.file = file;
    this.openLocal = openLocal;
    this.unlock = unlock;
    this.store = openLocal(file);
  }

  static open(file: string, openLocal: (file: string) => Store): Mirror {
    if (file === ':memory:') return new Mirror(file, openLocal, () => undefined);
    for (let slot = 1; slot <= MAX_SLOTS; slot++) {
      const candidate = slot === 1 ? file : `${file}-${slot}`;
      let unlock: ReleaseLock;
      try {
        unlock = lockConnector(candidate, `mirror-${path.basename(candidate)}`, 'kbctx (PostgreSQL mirror)');
      } catch (error) {
        if (error instanceof KbctxError && error.code === 'conflict') continue;
        throw error;
      }
      return new Mirror(candidate, openLocal, unlock);
    }
    throw new KbctxError('conflict', `every mirror slot of ${file} (1-${MAX_SLOTS}) is in use by another process`);
  }

  private get stateFile(): string {
    return `${this.file}.pg.json`;
  }

  state(): MirrorState | null {
    if (this.file === ':memory:') return this.memoryState;
    try {
      const parsed = JSON.parse(readFileSync(this.stateFile, 'utf8')) as Partial<MirrorState>;
      return typeof parsed.epoch === 'string' && typeof parsed.version === 'string'
        ? {
            epoch: parsed.epoch,
            version: parsed.version,
            token: typeof parsed.token === 'string' ? parsed.token : null,
          }
        : null;
    } catch {
      return null;
    }
  }

  /** Records the state; call only after the data it describes is committed in the mirror. */
  setState(state: MirrorState): void {
    if (this.file === ':memory:') {
      this.memoryState = state;
      return;
    }
    const draft = `${this.stateFile}.${process.pid}`;
    writeFileSync(draft, JSON.stringify(state));
    renameSync(draft, this.stateFile);
  }

  /** True when the mirror holds nothing (a new file). */
  async isEmpty(): Promise<boolean> {
    const counts = await this.store.counts();
    return counts.documents === 0 && counts.embedded === 0 && (await this.store.sourceStates()).length === 0;
  }

  /** Empties the mirror (another database, or no state): deletes its files and opens a new one. */
  async wipe(): Promise<void> {
    await this.store.close();
    if (this.file !== ':memory:') {
      for (const suffix of ['.pg.json', '', '-wal', '-shm', '.keyword', '.vectors'])
        rmSync(`${this.file}${suffix}`, { recursive: true, force: true });
    }
    this.memoryState = null;
    this.incarnation++;
    this.deferred = 0;
    this.store = this.openLocal(this.file);
  }

  async compact(): Promise<void> {
    this.deferred = 0;
    await this.store.compact();
  }

  async close(): Promise<void> {
    await this.store.close();
    this.unlock();
  }
}
