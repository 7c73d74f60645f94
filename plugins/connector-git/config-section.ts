// `[connectors.git.<name>]`: its keys, defaults and what the connector reads (ADR 0164).
import { connectorsOf, type Config, type ConfigSection } from '../../core/api/plugin.ts';
import { CHUNKER_SCHEMA, DEFAULT_MAX_FILE_BYTES, FILE_GLOB_KEYS, type ChunkerMode } from '../extract-text/api.ts';

/** One `[connectors.git.<name>]` table, as the connector reads it. */
export interface GitConnectorConfig {
  readonly url: string;
  readonly branch: string;
  readonly root: string;
  readonly includeGlobs: readonly string[];
  readonly excludeGlobs: readonly string[];
  readonly shallow: boolean;
  readonly cacheDir: string | null;
  readonly maxFileBytes: number;
  /** How its files are chunked: `code` by syntax, `text` by paragraphs, `auto` code for known code extensions. */
  readonly chunker: ChunkerMode;
  /** Limit for each git process (clone, fetch, checkout, log); its whole process group is killed then. */
  readonly timeoutSecs: number;
}

/** The configured `[connectors.git.<name>]` tables: name → table. */
export const gitConnectorsOf = (config: Config): Readonly<Record<string, GitConnectorConfig>> =>
  connectorsOf<GitConnectorConfig>(config, 'git');

export const gitSection: ConfigSection<GitConnectorConfig> = {
  schema: {
    type: 'object',
    properties: {
      url: { type: 'string' },
      branch: { type: 'string', default: 'main' },
      root: { type: 'string', default: '.' },
      ...FILE_GLOB_KEYS,
      shallow: { type: 'boolean', default: true },
      cache_dir: { type: 'string' },
      max_file_bytes: { type: 'integer', minimum: 1, default: DEFAULT_MAX_FILE_BYTES },
      chunker: CHUNKER_SCHEMA,
      timeout_secs: { type: 'number', exclusiveMinimum: 0, default: 600 },
    },
    required: ['url'],
    additionalProperties: false,
  },
  toConfig: (c, at) => ({
    url: c['url'] as string,
    branch: c['branch'] as string,
    root: c['root'] as string,
    includeGlobs: c['include_globs'] as string[],
    excludeGlobs: c['exclude_globs'] as string[],
    shallow: c['shallow'] as boolean,
    cacheDir: c['cache_dir'] === undefined ? null : at.resolvePath(c['cache_dir'] as string),
    maxFileBytes: c['max_file_bytes'] as number,
    chunker: c['chunker'] as ChunkerMode,
    timeoutSecs: c['timeout_secs'] as number,
  }),
};
