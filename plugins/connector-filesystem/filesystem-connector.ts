// Filesystem connector: indexes files under `root` matching the globs. The fingerprint is size+mtime,
// so an untouched file is never read again; a file over `max_file_bytes` or with binary content is
// skipped and counted. A folder or file below the root that cannot be read is reported as unreadable
// (its stored documents are kept); only an unreadable root fails the connector.
import { lstatSync, opendirSync, readFileSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  type FileExtraction,
  KbctxError,
  type Connector,
  type ConnectorWarning,
  type LoadedItem,
  type ScanEntry,
  type ScanOptions,
  type ScanResult,
  type UnreadablePath,
  type WatchTarget,
} from '../../core/api/plugin.ts';
import { createGlobFilter } from './globs.ts';
import { chunkerMetadata, loadFileItem } from '../extract-text/api.ts';
import { filesOutsideRoot } from './outside-root.ts';
import { readFailure, walkFiles, type Walk, type WalkedFile } from './walk.ts';
import type { FilesystemConnectorConfig } from './config-section.ts';

export class FilesystemConnector implements Connector {
  readonly type = 'filesystem';
  readonly label: string;
  private readonly config: FilesystemConnectorConfig;
  private readonly extraction: FileExtraction | undefined;

  /** `extraction`: the host's format extractors (none: Markdown and plain text only). */
  constructor(name: string, config: FilesystemConnectorConfig, extraction?: FileExtraction) {
    this.label = `filesystem:${name}`;
    this.config = config;
    this.extraction = extraction;
  }

  async scan(options?: ScanOptions): Promise<ScanResult> {
    const { root, includeGlobs, excludeGlobs, followSymlinks } = this.config;
    if (options?.paths) return this.scanPaths(options.paths);
    let walk: Walk;
    try {
      walk = walkFiles(root, createGlobFilter(includeGlobs, excludeGlobs), followSymlinks);
    } catch (error) {
      throw this.rootError(error);
    }
    return {
      entries: walk.files.map((f) => this.entry(f)),
      complete: true,
      deleted: [],
      checkpoint: null,
      unreadable: walk.unreadable,
    };
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

  /** What the live index watches (`[server] watch`): the root, through this connector's globs. */
  watchTarget(): WatchTarget {
    const { root, includeGlobs, excludeGlobs, followSymlinks } = this.config;
    return { root, filter: createGlobFilter(includeGlobs, excludeGlobs), followSymlinks };
  }

  /** With follow_symlinks: a warning when links lead to files outside the root (they are indexed too). */
  doctorWarnings(): Promise<ConnectorWarning[]> {
    const { root, includeGlobs, excludeGlobs, followSymlinks } = this.config;
    if (!followSymlinks) return Promise.resolve([]);
    const outside = filesOutsideRoot(root, walkFiles(root, createGlobFilter(includeGlobs, excludeGlobs), true).files);
    if (outside.length === 0) return Promise.resolve([]);
    const shown = outside
      .slice(0, 3)
      .map((f) => `${f.relative} → ${f.real}`)
      .join(', ');
    return Promise.resolve([
      {
        detail:
          `${this.label}: follow_symlinks indexes ${outside.length} file(s) outside the root ${root}: ` +
          `${shown}${outside.length > 3 ? ', …' : ''}`,
        fix:
          `if they are not meant to be searchable, remove the links or set follow_symlinks = false in ` +
          `connectors.filesystem.${this.label.slice(11)}`,
      },
    ]);
  }

  private rootError(error: unknown): KbctxError {
    const { root } = this.config;
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? 'does not exist' : code === 'ENOTDIR' ? 'is not a directory' : (error as Error).message;
    return new KbctxError(
      'connector_error',
      `${this.label}: root ${root} ${why}; fix connectors.filesystem.${this.label.slice(11)}.root`,
      { cause: error },
    );
  }

  /** Just the named files (a watcher's batch): present ones are listed, the others reported deleted. */
  private scanPaths(relatives: readonly string[]): ScanResult {
    const { root, includeGlobs, excludeGlobs, followSymlinks } = this.config;
    const filter = createGlobFilter(includeGlobs, excludeGlobs);
    const entries: ScanEntry[] = [];
    const deleted: string[] = [];
    const unreadable: UnreadablePath[] = [];
    for (const relative of new Set(relatives)) {
      const absolute = path.join(root, ...relative.split('/'));
      let stats: Stats | undefined;
      try {
        const link = lstatSync(absolute, { throwIfNoEntry: false });
        stats = link?.isSymbolicLink()
          ? followSymlinks
            ? statSync(absolute, { throwIfNoEntry: false })
            : undefined
          : link;
      } catch (error) {
        unreadable.push({ sourceId: relative, reason: readFailure(error) }); // unknown, not deleted
        continue;
      }
      if (stats?.isFile() && filter.accepts(relative)) entries.push(this.entry({ relative, absolute, stats }));
      else deleted.push(relative);
    }
    return { entries, complete: false, deleted, checkpoint: null, unreadable };
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
      metadata: { path: file.relative, size: file.stats.size, ...chunkerMetadata(this.config.chunker) },
      extraction: this.extraction,
    });
  }
}
