// Filesystem connector: indexes files under `root` matching the globs. The fingerprint is size+mtime,
// so an untouched file is never read again; a file over `max_file_bytes` or with binary content is
// skipped and counted.
import { lstatSync, opendirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { KbctxError } from '../../core/errors.ts';
import type { FilesystemConnectorConfig } from '../../config/types.ts';
import type { Connector, LoadedItem, ScanEntry, ScanOptions, ScanResult } from '../connector.ts';
import { loadFileItem } from '../file-item.ts';
import { createGlobFilter } from '../globs.ts';
import { walkFiles, type WalkedFile } from './walk.ts';

export class FilesystemConnector implements Connector {
  readonly type = 'filesystem';
  readonly label: string;
  private readonly config: FilesystemConnectorConfig;

  constructor(name: string, config: FilesystemConnectorConfig) {
    this.label = `filesystem:${name}`;
    this.config = config;
  }

  async scan(options?: ScanOptions): Promise<ScanResult> {
    const { root, includeGlobs, excludeGlobs, followSymlinks } = this.config;
    if (options?.paths) return this.scanPaths(options.paths);
    let files: WalkedFile[];
    try {
      files = walkFiles(root, createGlobFilter(includeGlobs, excludeGlobs), followSymlinks);
    } catch (error) {
      throw this.rootError(error);
    }
    return { entries: files.map((f) => this.entry(f)), complete: true, deleted: [], checkpoint: null };
  }

  probe(): Promise<string> {
    const { root } = this.config;
    try {
      opendirSync(root).closeSync(); // a readable folder, without listing it
    } catch (error) {
      return Promise.reject(this.rootError(error));
    }
    return Promise.resolve(`root ${root}`);
  }

  private rootError(error: unknown): KbctxError {
    const { root } = this.config;
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'does not exist' : code === 'ENOTDIR' ? 'is not a directory' : (error as Error).message;
    return new KbctxError('connector_error', `${this.label}: root ${root} ${why}; fix connectors.filesystem.${this.label.slice(11)}.root`, { cause: error });
  }

  /** Just the named files (a watcher's batch): present ones are listed, the others reported deleted. */
  private scanPaths(relatives: readonly string[]): ScanResult {
    const { root, includeGlobs, excludeGlobs, followSymlinks } = this.config;
    const filter = createGlobFilter(includeGlobs, excludeGlobs);
    const entries: ScanEntry[] = [];
    const deleted: string[] = [];
    for (const relative of new Set(relatives)) {
      const absolute = path.join(root, ...relative.split('/'));
      const link = lstatSync(absolute, { throwIfNoEntry: false });
      const stats = link?.isSymbolicLink() ? (followSymlinks ? statSync(absolute, { throwIfNoEntry: false }) : undefined) : link;
      if (stats?.isFile() && filter.accepts(relative)) entries.push(this.entry({ relative, absolute, stats }));
      else deleted.push(relative);
    }
    return { entries, complete: false, deleted, checkpoint: null };
  }

  private entry(file: WalkedFile): ScanEntry {
    return {
      sourceId: file.relative,
      fingerprint: `${file.stats.size}:${Math.trunc(file.stats.mtimeMs)}`,
      load: () => this.load(file),
    };
  }

  private load(file: WalkedFile): Promise<LoadedItem> {
    return loadFileItem({
      sourceId: file.relative,
      size: file.stats.size,
      maxFileBytes: this.config.maxFileBytes,
      // Synchronous on purpose: for local files it is ~4x cheaper than four async round trips.
      read: () => readFileSync(file.absolute),
      sourceUrl: pathToFileURL(file.absolute).href,
      updatedAt: file.stats.mtime.toISOString(),
      metadata: { path: file.relative, size: file.stats.size },
    });
  }

}
