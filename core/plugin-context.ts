// What a tap or a plugin's tool/agent/connector receives as `ctx`: the index's read services, a
// logger named after the plugin and an AbortSignal. The kernel hands each plugin its own view.
import type { KbctxDocument, SearchOutput, SourceInfo } from './domain/wire-types.ts';

export interface PluginLogger {
  info(message: string): void;
  warn(message: string): void;
  debug(message: string): void;
}

/**
 * The index as plugins see it: the built-in tools' REST bodies (`POST /tools/search`, `/tools/get`, `GET
 * /tools/sources`).
 */
export interface IndexServices {
  search(params: {
    query: string;
    mode?: string;
    limit?: number;
    source?: string;
    since?: string;
    explain?: boolean;
  }): Promise<SearchOutput>;
  get(id: string): Promise<KbctxDocument>;
  sources(): Promise<{ sources: SourceInfo[] }>;
}

export interface PluginContext extends IndexServices {
  /** The plugin the context belongs to. */
  readonly plugin: string;
  readonly log: PluginLogger;
  /** Aborted when the caller goes away or the kernel shuts down. */
  readonly signal: AbortSignal;
}

/** A hook argument the tap attribution replaces by the tapping plugin's own view of it. */
export interface PluginScoped<T> {
  forPlugin(plugin: string): T;
}

export const isPluginScoped = (value: unknown): value is PluginScoped<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as { forPlugin?: unknown }).forPlugin === 'function';

/**
 * Passed by the kernel as the last argument of a hook call; the tap attribution swaps it for the
 * tapping plugin's own `PluginContext` (its logger), so one call serves every plugin correctly.
 */
export class CallContext implements PluginScoped<PluginContext> {
  readonly signal: AbortSignal;
  private readonly factory: (plugin: string, signal: AbortSignal) => PluginContext;

  constructor(
    factory: (plugin: string, signal: AbortSignal) => PluginContext,
    signal: AbortSignal = new AbortController().signal,
  ) {
    this.factory = factory;
    this.signal = signal;
  }

  forPlugin(plugin: string): PluginContext {
    return this.factory(plugin, this.signal);
  }
}

/** A logger writing `[plugin] message` lines to stderr (debug lines only with KBCTX_DEBUG). */
export function stderrLogger(plugin: string, env: NodeJS.ProcessEnv = process.env): PluginLogger {
  const write = (level: string, message: string): void => void process.stderr.write(`${level}[${plugin}] ${message}\n`);
  return {
    info: (m) => write('', m),
    warn: (m) => write('warning: ', m),
    debug: (m) => (env['KBCTX_DEBUG'] ? write('debug: ', m) : undefined),
  };
}
