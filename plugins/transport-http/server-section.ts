// `[server]` (Context Harness's name and keys): what `kbctx serve` listens with (ADR 0164).
import { requireOwn, sectionOf, type Config, type ConfigSection } from '../../core/api/plugin.ts';
import type * as TokenSection from './token-section.ts';
import type { TokenConfig } from './token-section.ts';

/** `[server]`, as `kbctx serve` and the HTTP transports read it. */
export interface ServerConfig {
  readonly bind: string;
  readonly corsEnabled: boolean;
  readonly corsOrigins: readonly string[];
  /** Extra Host names accepted besides loopback names (DNS-rebinding protection). */
  readonly allowedHosts: readonly string[];
  readonly maxBodyBytes: number;
  /** Open MCP `subscriptions/listen` streams per server process, and per client (token or address). */
  readonly maxListenStreams: number;
  readonly maxListenStreamsPerClient: number;
  /** Server processes sharing the listening socket (1: a single process). */
  readonly workers: number;
  /** Name of the environment variable holding the Bearer token (never the token itself); null: no auth. */
  readonly authTokenEnv: string | null;
  /** `[server.tokens.<name>]` (ADR 0223), in the order written; `auth_token_env`'s token is not among them. */
  readonly tokens: readonly TokenConfig[];
  /** Limits of `auth_token_env`'s token (`default`, ADR 0224); null: none. */
  readonly maxConcurrent: number | null;
  readonly requestsPerMinute: number | null;
  /** GET /metrics (the metrics plugin) is answered without the token. */
  readonly metricsPublic: boolean;
  /** Lets a non-loopback bind start without a token (with a warning). */
  readonly allowUnauthenticated: boolean;
  readonly headersTimeoutSecs: number;
  readonly requestTimeoutSecs: number;
  readonly keepAliveTimeoutSecs: number;
  /** The server watches filesystem connectors (docs/sync.md); 'poll': by periodic rescans instead of file events. */
  readonly watch: boolean | 'poll';
}

/** The config's `[server]`, defaults applied. */
export const serverConfigOf = (config: Config): ServerConfig => sectionOf<ServerConfig>(config, 'server');

const names = { type: 'array', items: { type: 'string' } } as const;
const positive = { type: 'integer', minimum: 1 } as const;

/** One `[server.tokens.<name>]` entry's JSON Schema (ADR 0223) (the subset json-check.ts checks without ajv). */
const tokenEntrySchema = {
  type: 'object',
  properties: {
    token_env: { type: 'string' },
    token_sha256: { type: 'string' },
    // Accepted by the schema only so toTokenConfigs can refuse it with a message saying what to write instead.
    token: {},
    sources: names,
    paths: names,
    meta: { type: 'object' },
    tools: names,
    admin: { type: 'boolean', default: false },
    max_concurrent: positive,
    requests_per_minute: positive,
  },
  additionalProperties: false,
} as const;

const seconds = (fallback: number) => ({ type: 'number', exclusiveMinimum: 0, default: fallback });

export const serverSection: ConfigSection<ServerConfig> = {
  schema: {
    type: 'object',
    properties: {
      bind: { type: 'string', default: '127.0.0.1:7331' },
      cors_enabled: { type: 'boolean', default: true },
      cors_origins: { type: 'array', items: { type: 'string' }, default: ['*'] },
      allowed_hosts: { type: 'array', items: { type: 'string' }, default: [] },
      max_body_bytes: { type: 'integer', minimum: 1024, default: 1_048_576 },
      max_listen_streams: { type: 'integer', minimum: 1, default: 256 },
      max_listen_streams_per_client: { type: 'integer', minimum: 1, default: 8 },
      workers: { type: 'integer', minimum: 1, maximum: 64, default: 1 },
      auth_token_env: { type: 'string' },
      tokens: { type: 'object', additionalProperties: tokenEntrySchema },
      max_concurrent: { type: 'integer', minimum: 1 },
      requests_per_minute: { type: 'integer', minimum: 1 },
      allow_unauthenticated: { type: 'boolean', default: false },
      metrics_public: { type: 'boolean', default: false },
      headers_timeout_secs: seconds(10),
      request_timeout_secs: seconds(30),
      keep_alive_timeout_secs: seconds(5),
      watch: { anyOf: [{ type: 'boolean' }, { enum: ['poll'] }], default: true },
    },
    additionalProperties: false,
  },
  toConfig(s, at) {
    if ((s['headers_timeout_secs'] as number) > (s['request_timeout_secs'] as number)) {
      at.fail(
        'headers_timeout_secs',
        `must not exceed server.request_timeout_secs (${s['request_timeout_secs'] as number})`,
      );
    }
    const authTokenEnv = (s['auth_token_env'] as string | undefined) ?? null;
    const tables = (s['tokens'] ?? {}) as Record<string, Record<string, unknown>>;
    const tokens =
      Object.keys(tables).length === 0
        ? []
        : requireOwn<typeof TokenSection>(import.meta.url, './token-section.ts').toTokenConfigs(tables, at);
    if (authTokenEnv !== null && tokens.some((t) => t.name === 'default'))
      at.fail('tokens.default', 'is auth_token_env’s token: name this one differently');
    for (const key of ['max_concurrent', 'requests_per_minute'] as const) {
      if (s[key] !== undefined && authTokenEnv === null)
        at.fail(
          key,
          'limits auth_token_env’s token (`default`): set auth_token_env, or put it under [server.tokens.<name>]',
        );
    }
    return {
      bind: s['bind'] as string,
      corsEnabled: s['cors_enabled'] as boolean,
      corsOrigins: s['cors_origins'] as string[],
      allowedHosts: s['allowed_hosts'] as string[],
      maxBodyBytes: s['max_body_bytes'] as number,
      maxListenStreams: s['max_listen_streams'] as number,
      maxListenStreamsPerClient: s['max_listen_streams_per_client'] as number,
      workers: s['workers'] as number,
      authTokenEnv,
      tokens,
      maxConcurrent: (s['max_concurrent'] as number | undefined) ?? null,
      requestsPerMinute: (s['requests_per_minute'] as number | undefined) ?? null,
      allowUnauthenticated: s['allow_unauthenticated'] as boolean,
      metricsPublic: s['metrics_public'] as boolean,
      headersTimeoutSecs: s['headers_timeout_secs'] as number,
      requestTimeoutSecs: s['request_timeout_secs'] as number,
      keepAliveTimeoutSecs: s['keep_alive_timeout_secs'] as number,
      watch: s['watch'] as boolean | 'poll',
    };
  },
};
