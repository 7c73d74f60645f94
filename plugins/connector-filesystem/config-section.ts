// `[connectors.filesystem.<name>]`: its keys, defaults and what the connector reads (ADR 0164).
// Context Harness's spelling `max_extract_bytes` is accepted for `max_file_bytes`.
import { connectorsOf, type Config, type ConfigSection } from '../../core/api/plugin.ts';
import { CHUNKER_SCHEMA, DEFAULT_MAX_FILE_BYTES, FILE_GLOB_KEYS, type ChunkerMode } from '../extract-text/api.ts';

/** One `[connectors.filesystem.<name>]` table, as the connector reads it. */
export interface FilesystemConnectorConfig {
  readonly root: string;
  readonly includeGlobs: readonly string[];
  readonly excludeGlobs: readonly string[];
  readonly followSymlinks: boolean;
  readonly maxFileBytes: number;
  /** How its files are chunked: `code` by syntax, `text` by paragraphs, `auto` code for known code extensions. */
  readonly chunker: ChunkerMode;
}

/** The configured `[connectors.filesystem.<name>]` tables: name → table. */
export const filesystemConnectorsOf = (config: Config): Readonly<Record<string, FilesystemConnectorConfig>> =>
  connectorsOf<FilesystemConnectorConfig>(config, 'filesystem');

export const filesystemSection: ConfigSection<FilesystemConnectorConfig> = {
  schema: {
    type: 'object',
    properties: {
      root: { type: 'string' },
      ...FILE_GLOB_KEYS,
      follow_symlinks: { type: 'boolean', default: false },
      max_file_bytes: { type: 'integer', minimum: 1 },
      max_extract_bytes: { type: 'integer', minimum: 1 },
      chunker: CHUNKER_SCHEMA,
    },
    required: ['root'],
    additionalProperties: false,
  },
  toConfig(c, at) {
    if (c['max_file_bytes'] !== undefined && c['max_extract_bytes'] !== undefined)
      at.fail('', 'sets both max_file_bytes and max_extract_bytes; keep one');
    return {
      root: at.resolvePath(c['root'] as string),
      includeGlobs: c['include_globs'] as string[],
      excludeGlobs: c['exclude_globs'] as string[],
      followSymlinks: c['follow_symlinks'] as boolean,
      maxFileBytes: (c['max_file_bytes'] ?? c['max_extract_bytes'] ?? DEFAULT_MAX_FILE_BYTES) as number,
      chunker: c['chunker'] as ChunkerMode,
    };
  },
};
