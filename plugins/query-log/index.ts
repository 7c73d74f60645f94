// First-party plugin: the query log (ADR 0220). It owns `[query_log]` (schema below, in this file so the
// start-up of `kbctx search` loads one module for it); with a `file` set it taps the kernel's `searched` hook
// and appends one JSON line per search made through a surface (REST, MCP, the web page, the CLI) —
// buffered, asynchronous, never failing a search. `kbctx query-log export` turns a log into queries and
// pseudo-qrels for `kbctx eval`. The writer loads on the first search, the command module when it runs.
import {
  definePlugin,
  hostService,
  requireOwn,
  sectionOf,
  type Config,
  type ConfigSection,
} from '../../core/api/plugin.ts';
import { cliService } from '../cli/api.ts';
import type * as LogLine from './log-line.ts';
import type * as Writer from './log-writer.ts';

export interface QueryLogConfig {
  /** The log file, resolved against the project folder (the one holding config/). */
  file: string;
  /** Write the query's SHA-256 (`query_sha256`) instead of its text. */
  redact: boolean;
  /** Past this size the file is rotated (`file.1`, `file.2`, …) before the next line. */
  maxBytes: number;
  /** How many rotated files are kept (0: the full file is removed). */
  keep: number;
}

export const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
export const DEFAULT_KEEP = 3;

export const queryLogSection: ConfigSection<QueryLogConfig | null> = {
  schema: {
    type: 'object',
    properties: {
      file: {
        type: 'string',
        description: 'the query log: one JSON line per search (relative to the project folder)',
      },
      redact: {
        type: 'boolean',
        default: false,
        description: 'log the SHA-256 of each query (query_sha256) instead of its text',
      },
      max_bytes: {
        type: 'integer',
        minimum: 1024,
        default: DEFAULT_MAX_BYTES,
        description: 'rotate the file when the next line would take it past this size',
      },
      keep: {
        type: 'integer',
        minimum: 0,
        maximum: 100,
        default: DEFAULT_KEEP,
        description: 'how many rotated files (file.1 … file.N) are kept',
      },
    },
    additionalProperties: false,
  },
  toConfig: (s, at) =>
    typeof s['file'] === 'string' && s['file'] !== ''
      ? {
          file: at.resolvePath(s['file']),
          redact: s['redact'] as boolean,
          maxBytes: s['max_bytes'] as number,
          keep: s['keep'] as number,
        }
      : null,
};

/** `[query_log]` as loaded; null when no log is configured. */
export const queryLogConfigOf = (config: Config): QueryLogConfig | null =>
  sectionOf<QueryLogConfig | null | undefined>(config, 'query_log') ?? null;

const plugin = definePlugin({
  name: 'query-log',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['command:query-log'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  configSections: { query_log: queryLogSection },
  apply(kernel) {
    kernel.hooks.commands.tapPromise({ name: 'query-log', commands: ['query-log'] }, async (program) => {
      const { registerQueryLog } = await import('./commands/query-log.ts');
      registerQueryLog(program as unknown as Parameters<typeof registerQueryLog>[0], kernel.use(cliService));
    });
    const config = queryLogConfigOf(kernel.use(hostService).config);
    if (config === null) return;
    let write: ((record: Parameters<typeof LogLine.toLogLine>[0]) => void) | undefined;
    let writer: Writer.LogWriter | undefined;
    kernel.hooks.searched.tap('query-log', (record, ctx) => {
      // kbctx's own searches (eval's replays) are not a surface's: left out, so a replay does not log itself.
      if (record.origin.surface === undefined) return;
      if (!write) {
        const { toLogLine } = requireOwn<typeof LogLine>(import.meta.url, './log-line.ts');
        const { LogWriter } = requireOwn<typeof Writer>(import.meta.url, './log-writer.ts');
        const made = new LogWriter({ ...config, warn: (m) => ctx.log.warn(m) });
        writer = made;
        write = (r) => made.append(JSON.stringify(toLogLine(r, config.redact)));
      }
      write(record);
    });
    // The CLI exits after its search: what is queued is written first.
    kernel.onDispose(() => writer?.flush());
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
