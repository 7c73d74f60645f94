// The host's text extraction (service `fileExtraction`): the `extract.for(extension)` taps of the
// loaded plugins, asked in stage order; undefined when no tap answers (or none is registered).
import type { ExtractedText, ExtractRequest, FileExtraction } from '../hook-types.ts';
import type { Kernel } from '../kernel.ts';

export function extractionOf(kernel: Kernel): FileExtraction {
  // Not an async function: a file whose extension no plugin taps (every Markdown file of a sync) costs a look-up, not a
  // promise.
  return (request: ExtractRequest): Promise<ExtractedText | undefined> => {
    const hook = kernel.hooks.extract.get(request.extension);
    return hook?.isUsed() ? hook.promise(request, kernel.callContext()) : NONE;
  };
}

const NONE: Promise<undefined> = Promise.resolve(undefined);
