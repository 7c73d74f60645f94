// extract-text's contract entry (ADR 0201): what file connectors (filesystem, git, S3, a third party's) share —
// their common keys (globs, `max_file_bytes`, `chunker`: ADR 0239),
// `loadFileItem` (the size limit, extraction, the title fallback) and `extractText`, thin wrappers that import their
// modules on the first file (a dynamic import() per call would cost the module loader's look-up for every document of
// a sync, ADR 0131), `decodeText`, and the `fileExtraction` service the connectors hand them (the `extract.for` taps).
import { createServiceRef, type FileExtraction, type LoadedItem } from '../../core/api/plugin.ts';
import type * as Extract from './extract.ts';
import type * as FileItem from './file-item.ts';
import type { ExtractOptions, ExtractOutcome } from './extract.ts';
import type { FileLike } from './file-item.ts';

export type { Extracted, ExtractOptions, ExtractOutcome } from './extract.ts';
export type { FileLike } from './file-item.ts';

const globs = (fallback: string[]) => ({ type: 'array', items: { type: 'string' }, default: fallback });

/** A file connector section's glob keys (JSON Schema properties): Markdown and plain text files by default. */
export const FILE_GLOB_KEYS = Object.freeze({
  include_globs: globs(['**/*.md', '**/*.txt']),
  exclude_globs: globs([]),
});

/** A file connector's `max_file_bytes` default: larger files are skipped (reported), not read. */
export const DEFAULT_MAX_FILE_BYTES = 50_000_000;

/** A file connector's `chunker` (issue 33): `code` by syntax, `text` by paragraphs, `auto`: code for code files. */
export const CHUNKER_MODES = ['auto', 'code', 'text'] as const;
export type ChunkerMode = (typeof CHUNKER_MODES)[number];
/** The `chunker` key of a file connector's config section (JSON Schema). */
export const CHUNKER_SCHEMA = Object.freeze({ type: 'string', enum: [...CHUNKER_MODES], default: 'auto' });
/**
 * How a connector's `chunker` reaches the `chunk` taps (chunker-code reads it back): the document metadata key
 * `chunker`, set only when not `auto` (so existing indexes keep their content hashes, and a changed setting
 * re-chunks on the next sync).
 */
export const chunkerMetadata = (mode: ChunkerMode | undefined): Record<string, string> =>
  mode === 'code' || mode === 'text' ? { chunker: mode } : {};

/** The `extract.for(extension)` taps as one function, provided by extract-text (dropped: no file connector runs). */
export const fileExtraction = createServiceRef<FileExtraction>('kbctx.file-extraction');

let fileItem: typeof FileItem | Promise<typeof FileItem> | undefined;
let extract: typeof Extract | Promise<typeof Extract> | undefined;

export async function loadFileItem(file: FileLike): Promise<LoadedItem> {
  const module = (fileItem ??= import('./file-item.ts').then(
    (m) => (fileItem = m),
    retry(() => (fileItem = undefined)),
  ));
  return ('loadFileItem' in module ? module : await module).loadFileItem(file);
}

export async function extractText(
  sourceId: string,
  bytes: Uint8Array,
  options: ExtractOptions = { maxFileBytes: Infinity },
): Promise<ExtractOutcome> {
  const module = (extract ??= import('./extract.ts').then(
    (m) => (extract = m),
    retry(() => (extract = undefined)),
  ));
  return ('extractText' in module ? module : await module).extractText(sourceId, bytes, options);
}

// File bytes as text: UTF-16 (little- or big-endian) when the bytes start with its byte-order mark, else UTF-8. The
// BOM is removed; invalid sequences become U+FFFD rather than failing. Here, not in a module of its own: the contract
// entry loads at start-up with the file connectors' indexes, and a module more is a start-up cost (ADR 0130).
type Encoding = 'utf-8' | 'utf-16le' | 'utf-16be';
const decoders = new Map<Encoding, InstanceType<typeof TextDecoder>>(); // made on first use, not at start-up

/** The UTF-16 encoding its byte-order mark announces, or null (no BOM: UTF-8 is assumed). */
export function utf16Encoding(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  if (bytes.length < 2) return null;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return null;
}

export function decodeText(bytes: Uint8Array): string {
  const encoding = utf16Encoding(bytes) ?? 'utf-8';
  let decoder = decoders.get(encoding);
  if (!decoder) decoders.set(encoding, (decoder = new TextDecoder(encoding, { fatal: false, ignoreBOM: false })));
  return decoder.decode(bytes);
}

/** A failed import is not kept: the next call tries again. */
const retry =
  (forget: () => void) =>
  (error: unknown): never => {
    forget();
    throw error;
  };
