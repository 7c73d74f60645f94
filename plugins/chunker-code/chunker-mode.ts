// Reads the file connectors' `chunker` setting back from a document's metadata (extract-text/api.ts
// `chunkerMetadata` writes it). Pure.
import { CHUNKER_MODES, type ChunkerMode } from '../extract-text/api.ts';

/** The mode a document asks for: its metadata's `chunker` when one of the modes, else `auto`. */
export function chunkerModeOf(metadata: Readonly<Record<string, unknown>>): ChunkerMode {
  const value = metadata['chunker'];
  return CHUNKER_MODES.find((m) => m === value) ?? 'auto';
}
