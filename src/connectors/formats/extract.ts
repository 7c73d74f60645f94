// Text extraction by file extension, shared by every file-like connector (filesystem, git, S3).
// Returns the item's text and what the format says about it; the caller decides ids and URLs.
// Formats register by extension below; anything else is read as text unless it looks binary.
import path from 'node:path';
import type { SkipReason } from '../connector.ts';
import { looksBinary } from './binary.ts';
import { extractMarkdown } from './markdown.ts';
import { decodeText } from './text.ts';

export interface Extracted {
  title?: string | undefined;
  body: string;
  contentType: string;
  metadata?: Record<string, unknown> | undefined;
}

export type ExtractOutcome = { ok: true; value: Extracted } | { ok: false; reason: SkipReason; detail: string };

type Extractor = (bytes: Uint8Array, fileName: string) => Extracted | Promise<Extracted>;

const MARKDOWN = new Set(['.md', '.markdown', '.mdx', '.mdown']);

const TEXT_TYPES: Record<string, string> = {
  '.txt': 'text/plain',
  '.rst': 'text/x-rst',
  '.adoc': 'text/asciidoc',
  '.json': 'application/json',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.toml': 'application/toml',
  '.csv': 'text/csv',
};

/** Format extractors by extension beyond Markdown and plain text (filled in by formats/*.ts). */
const EXTRACTORS = new Map<string, Extractor>();

export function registerExtractor(extensions: readonly string[], extractor: Extractor): void {
  for (const ext of extensions) EXTRACTORS.set(ext, extractor);
}

export async function extractText(fileName: string, bytes: Uint8Array): Promise<ExtractOutcome> {
  const ext = path.extname(fileName).toLowerCase();
  const special = EXTRACTORS.get(ext);
  try {
    if (special) return { ok: true, value: await special(bytes, fileName) };
    if (looksBinary(bytes)) return { ok: false, reason: 'binary', detail: 'binary content (NUL bytes)' };
    const text = decodeText(bytes);
    if (MARKDOWN.has(ext)) return { ok: true, value: await extractMarkdown(text) };
    return { ok: true, value: { body: text, contentType: TEXT_TYPES[ext] ?? 'text/plain' } };
  } catch (error) {
    return { ok: false, reason: 'extract_failed', detail: `cannot extract ${ext || 'text'}: ${(error as Error).message}` };
  }
}
