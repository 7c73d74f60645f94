// `[connectors.s3.<name>]`: its keys, defaults and what the connector reads (ADR 0164).
import { connectorsOf, type Config, type ConfigSection } from '../../core/api/plugin.ts';
import { CHUNKER_SCHEMA, DEFAULT_MAX_FILE_BYTES, FILE_GLOB_KEYS, type ChunkerMode } from '../extract-text/api.ts';

/** One `[connectors.s3.<name>]` table, as the connector reads it. */
export interface S3ConnectorConfig {
  readonly bucket: string;
  readonly prefix: string;
  readonly region: string;
  readonly endpointUrl: string | null;
  readonly includeGlobs: readonly string[];
  readonly excludeGlobs: readonly string[];
  readonly maxFileBytes: number;
  /** How its files are chunked: `code` by syntax, `text` by paragraphs, `auto` code for known code extensions. */
  readonly chunker: ChunkerMode;
}

/** The configured `[connectors.s3.<name>]` tables: name → table. */
export const s3ConnectorsOf = (config: Config): Readonly<Record<string, S3ConnectorConfig>> =>
  connectorsOf<S3ConnectorConfig>(config, 's3');

export const s3Section: ConfigSection<S3ConnectorConfig> = {
  schema: {
    type: 'object',
    properties: {
      bucket: { type: 'string' },
      prefix: { type: 'string', default: '' },
      region: { type: 'string', default: 'us-east-1' },
      endpoint_url: { type: 'string' },
      ...FILE_GLOB_KEYS,
      max_file_bytes: { type: 'integer', minimum: 1, default: DEFAULT_MAX_FILE_BYTES },
      chunker: CHUNKER_SCHEMA,
    },
    required: ['bucket'],
    additionalProperties: false,
  },
  toConfig: (c) => ({
    bucket: c['bucket'] as string,
    prefix: c['prefix'] as string,
    region: c['region'] as string,
    endpointUrl: (c['endpoint_url'] as string | undefined) ?? null,
    includeGlobs: c['include_globs'] as string[],
    excludeGlobs: c['exclude_globs'] as string[],
    maxFileBytes: c['max_file_bytes'] as number,
    chunker: c['chunker'] as ChunkerMode,
  }),
};
