// The file-connector helpers as core's public API exposes them: thin async wrappers that import the
// text extraction (Markdown, plain text, binary detection) on first use, so a command that reads no
// files does not load it with core/index.ts. The import is made once: a dynamic import() per call
// costs the module loader's resolve and cache look-up for every document of a sync (ADR 0131).
import type * as FileItem from './file-item.ts';
import type * as Extract from './text/extract.ts';
import type { FileLike } from './file-item.ts';
import type { LoadedItem } from './connector.ts';
import type { ExtractOptions, ExtractOutcome } from './text/extract.ts';

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
  const module = (extract ??= import('./text/extract.ts').then(
    (m) => (extract = m),
    retry(() => (extract = undefined)),
  ));
  return ('extractText' in module ? module : await module).extractText(sourceId, bytes, options);
}

/** A failed import is not kept: the next call tries again. */
const retry =
  (forget: () => void) =>
  (error: unknown): never => {
    forget();
    throw error;
  };
