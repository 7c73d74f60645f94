// Turns one file-like object (a local file, a git blob, an S3 object) into a LoadedItem: the size
// limit, text extraction by extension, and the title fallback, shared by every file-based connector.
import path from 'node:path';
import type { FileExtraction, LoadedItem } from '../../core/api/plugin.ts';
import { extractText } from './extract.ts';

export interface FileLike {
  /** '/'-separated path or key: the item's source_id and the name formats are chosen by. */
  sourceId: string;
  size: number;
  maxFileBytes: number;
  read(): Uint8Array | Promise<Uint8Array>;
  sourceUrl: string;
  updatedAt: string | undefined;
  metadata: Record<string, unknown>;
  /** The host's format extractors (`extract.for(extension)` taps); none: Markdown and plain text only. */
  extraction?: FileExtraction | undefined;
}

export async function loadFileItem(file: FileLike): Promise<LoadedItem> {
  if (file.size > file.maxFileBytes) {
    return {
      kind: 'skipped',
      reason: 'too_large',
      detail: `${file.size} bytes is over max_file_bytes (${file.maxFileBytes})`,
    };
  }
  const extracted = await extractText(file.sourceId, await file.read(), {
    maxFileBytes: file.maxFileBytes,
    extraction: file.extraction,
  });
  if (!extracted.ok) return { kind: 'skipped', reason: extracted.reason, detail: extracted.detail };
  const { title, body, contentType, metadata } = extracted.value;
  return {
    kind: 'item',
    item: {
      sourceId: file.sourceId,
      title: title ?? path.posix.basename(file.sourceId),
      body,
      sourceUrl: file.sourceUrl,
      updatedAt: file.updatedAt,
      contentType,
      metadata: { ...file.metadata, ...metadata },
    },
  };
}
