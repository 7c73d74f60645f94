// The file-connector helpers as core's public API exposes them: thin async wrappers that import the
// text extraction (Markdown, plain text, binary detection) on first use, so a command that reads no
// files does not load it with core/index.ts.
import type { FileLike } from './file-item.ts';
import type { LoadedItem } from './connector.ts';
import type { ExtractOptions, ExtractOutcome } from './text/extract.ts';

export async function loadFileItem(file: FileLike): Promise<LoadedItem> {
  return (await import('./file-item.ts')).loadFileItem(file);
}

export async function extractText(sourceId: string, bytes: Uint8Array, options: ExtractOptions = { maxFileBytes: Infinity }): Promise<ExtractOutcome> {
  return (await import('./text/extract.ts')).extractText(sourceId, bytes, options);
}
