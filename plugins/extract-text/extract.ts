// Text extraction by file extension, shared by every file-like connector (filesystem, git, S3).
// Returns the item's text and what the format says about it; the caller decides ids and URLs.
// 1. The host's extraction (the `extract.for(extension)` taps) is asked first: a plugin adds or overrides a format.
// 2. None answered: a document format no loaded plugin extracts (PDF, Office, HTML) is skipped as unsupported.
// 3. Otherwise Markdown and plain text are read here, anything else as text unless it looks binary.
import path from 'node:path';
import { PluginError, type FileExtraction, type SkipReason } from '../../core/api/plugin.ts';
import { looksBinary } from './binary.ts';
import { decodeText } from './api.ts';
import { extractMarkdown } from './markdown.ts';

export interface Extracted {
  title?: string | undefined;
  body: string;
  contentType: string;
  metadata?: Record<string, unknown> | undefined;
}

export type ExtractOutcome = { ok: true; value: Extracted } | { ok: false; reason: SkipReason; detail: string };

export interface ExtractOptions {
  /** The connector's `max_file_bytes`, handed to extractors. */
  maxFileBytes: number;
  extraction?: FileExtraction | undefined;
}

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

/** Document formats that need an extractor (the bundled extract-documents plugin's): never read as raw text. */
const DOCUMENT_FORMATS = new Set(['.html', '.htm', '.xhtml', '.pdf', '.docx', '.pptx', '.xlsx']);

export async function extractText(
  fileName: string,
  bytes: Uint8Array,
  options: ExtractOptions = { maxFileBytes: Infinity },
): Promise<ExtractOutcome> {
  const ext = path.extname(fileName).toLowerCase();
  try {
    const extracted = await options.extraction?.({
      bytes,
      fileName,
      extension: ext.slice(1),
      maxFileBytes: options.maxFileBytes,
    });
    if (extracted) return { ok: true, value: fromPlugin(extracted, ext) };
    if (DOCUMENT_FORMATS.has(ext))
      return {
        ok: false,
        reason: 'unsupported',
        detail:
          `no loaded plugin extracts ${ext} files (the bundled plugin ` +
          `extract-documents does: check plugins in the config)`,
      };
    if (looksBinary(bytes)) return { ok: false, reason: 'binary', detail: 'binary content (NUL bytes)' };
    const text = decodeText(bytes);
    if (MARKDOWN.has(ext)) return { ok: true, value: await extractMarkdown(text) };
    return { ok: true, value: { body: text, contentType: TEXT_TYPES[ext] ?? 'text/plain' } };
  } catch (error) {
    return { ok: false, reason: 'extract_failed', detail: `cannot extract ${ext || 'text'}: ${failure(error)}` };
  }
}

function fromPlugin(
  extracted: { text: unknown; title?: unknown; contentType?: unknown; metadata?: unknown },
  ext: string,
): Extracted {
  if (typeof extracted.text !== 'string') throw new Error('an extract plugin returned no string `text`');
  const { title, contentType, metadata } = extracted;
  return {
    body: extracted.text,
    title: typeof title === 'string' ? title : undefined,
    contentType: typeof contentType === 'string' ? contentType : (TEXT_TYPES[ext] ?? 'text/plain'),
    metadata:
      metadata && typeof metadata === 'object' && !Array.isArray(metadata)
        ? (metadata as Record<string, unknown>)
        : undefined,
  };
}

/** The reason first; a plugin's failure says which plugin. */
function failure(error: unknown): string {
  if (error instanceof PluginError)
    return `${error.cause instanceof Error ? error.cause.message : error.message} (plugin ${error.plugin})`;
  return (error as Error).message;
}
