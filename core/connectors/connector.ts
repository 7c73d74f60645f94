// The connector contract: list what a source holds cheaply, load an item's text only when asked.
// Implementations live in sibling folders (filesystem/, git/, s3/, script/); sync (app/sync.ts) is the
// only caller and owns every decision about what to write.
import type { SourceItem } from '../domain/models.ts';
import type { PluginContext } from '../plugin-context.ts';

export type SkipReason = 'binary' | 'too_large' | 'unsupported' | 'extract_failed';

export type LoadedItem = { kind: 'item'; item: SourceItem } | { kind: 'skipped'; reason: SkipReason; detail: string };

export interface ScanEntry {
  sourceId: string;
  /** Overrides the connector label as the document's `source` (script connectors may). */
  source?: string | undefined;
  /** Cheap change token (size+mtime, blob sha, ETag). Equal token ⇒ unchanged, not even loaded. Null: always load. */
  fingerprint: string | null;
  /** Reads and extracts the item. Rejects on a transport/read failure (counted as an error, the stored copy kept). */
  load(): Promise<LoadedItem>;
}

/** Something a scan could not read: a file, or a folder (its source id ends in '/'), and why. */
export interface UnreadablePath {
  sourceId: string;
  reason: string;
}

export interface ScanResult {
  entries: ScanEntry[];
  /** True when `entries` lists everything the source holds: stored items not listed are deleted. */
  complete: boolean;
  /** Source ids the source reports as deleted (incremental sources). */
  deleted: string[];
  /** Opaque position to pass back next time (null: none). */
  checkpoint: string | null;
  /**
   * What could not be read (reported as errors). Unknown, not gone: stored items at these source ids,
   * or under these folders, are kept even by a complete listing.
   */
  unreadable?: UnreadablePath[] | undefined;
}

export interface ScanOptions {
  /** The checkpoint from the last successful sync; null on the first sync or with --full. */
  checkpoint: string | null;
  full: boolean;
  /** A hint that only these source ids may have changed; a connector that honours it returns `complete: false`. */
  paths?: readonly string[] | undefined;
  signal?: AbortSignal | undefined;
}

export interface Connector {
  /** `<type>:<name>`. */
  readonly label: string;
  readonly type: string;
  /** Rejects with a KbctxError (connector_error / config_error) when the source cannot be listed at all. */
  scan(options: ScanOptions): Promise<ScanResult>;
  /**
   * For `kbctx doctor`: checks cheaply, without listing everything, that the source can be reached.
   * Resolves with what was found (one line); rejects with the KbctxError a sync would fail with.
   * Absent: the connector has no cheap check.
   */
  probe?(): Promise<string>;
  /**
   * For `kbctx doctor`, after a probe that passed: what a sync would do that the user may not expect
   * (a followed link leading out of the root), one warning each with its fix. Absent: none.
   */
  doctorWarnings?(): Promise<ConnectorWarning[]>;
  /**
   * For the live index of `kbctx serve` (`[server] watch`): the folder whose changes this connector
   * indexes, and which of its files it would index. Absent: nothing to watch (schedules only).
   */
  watchTarget?(): WatchTarget;
}

/** A connector's include/exclude globs (the filesystem connector's createGlobFilter makes one). */
export interface GlobFilter {
  /** True when the file should be indexed. */
  accepts(relativePath: string): boolean;
  /** True when nothing under this directory can be accepted (an exclude covers it), so the walk can prune it. */
  prunes(relativeDir: string): boolean;
}

export interface WatchTarget {
  root: string;
  /** The connector's include/exclude globs: what it never indexes is not reported. */
  filter: GlobFilter;
  followSymlinks: boolean;
}

export interface ConnectorWarning {
  detail: string;
  fix: string;
}

// What the `createConnector.for(type)` slot receives and returns (ADR 0204: a slot's values live with it).
/** `[connectors.<type>.<name>]`: what `createConnector.for(type)` taps receive. */
export interface ConnectorInstance {
  type: string;
  name: string;
  /** The section: as written for plugin types, validated (camelCase) for the built-in types. */
  options: Record<string, unknown>;
  /** A folder beside the index for the connector's own caches (git clones …). */
  dataDir: string;
  /** The config root (the project folder above `config/`, ADR 0114): relative paths in options resolve against it. */
  baseDir: string;
}

/** One item a plugin connector or a compiled extension's connector yields (the Lua connectors' item fields). */
export interface PluginItem {
  source_id: string;
  title?: string;
  body: string;
  source_url?: string;
  /** RFC 3339, `YYYY-MM-DD HH:MM:SS` (UTC) or unix seconds; default now. */
  updated_at?: string | number;
  content_type?: string;
  author?: string;
  metadata_json?: string | Record<string, unknown>;
}

/** The simple form: every item the source holds (what is not listed is deleted from the index). */
export interface PluginConnector {
  scan(ctx: PluginContext): AsyncIterable<PluginItem> | Iterable<PluginItem>;
  timeout?: number;
}

/**
 * The incremental form (the first-party connectors'): `scan` lists entries with cheap fingerprints
 * and loads an entry's text only when it changed; the `Connector` interface above.
 */
export type IncrementalConnector = Connector;

/** What a `createConnector.for(type)` tap returns. */
export type ConnectorImpl = PluginConnector | IncrementalConnector;

export const isIncrementalConnector = (c: ConnectorImpl): c is IncrementalConnector =>
  typeof (c as { label?: unknown }).label === 'string';
