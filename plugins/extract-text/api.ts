// The host's text extraction as a service: file connectors (first-party or not) `use` it to turn a
// file's bytes into text through the `extract.for(extension)` taps, so a plugin can add or override a format.
import type { FileExtraction } from './hook-types.ts';
import { createServiceRef } from './services.ts';

export const fileExtraction = createServiceRef<FileExtraction>('kbctx.file-extraction');
