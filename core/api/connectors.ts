// What file connectors use of core, a light entry of the public API (ADR 0130): glob filters. Reading a file into an
// item and text extraction are the extract-text plugin's (its contract entry, plugins/extract-text/api.ts; ADR 0201).
export { createGlobFilter } from '../connectors/globs.ts';
export type { GlobFilter } from '../connectors/globs.ts';
