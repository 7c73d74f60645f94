// What file connectors use, a light entry of the public API (ADR 0130): reading a file into an item
// and text extraction (lazy wrappers: their modules load on the first file), glob filters, text decoding.
export { extractText, loadFileItem } from '../connectors/lazy-text.ts';
export { createGlobFilter } from '../connectors/globs.ts';
export type { GlobFilter } from '../connectors/globs.ts';
export type { ExtractOutcome, Extracted } from '../connectors/text/extract.ts';
export { decodeText } from '../connectors/text/text.ts';
