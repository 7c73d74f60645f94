// The config section contract (ADR 0164): what a plugin declares for a section it owns (`connectorConfigs`,
// `embedderConfigs`, `storeConfigs`, `configSections` in core/plugin.ts), read by the config loader. Types only.
import type { JsonSchema } from '../plugin.ts';

/** A config section a plugin owns (ADR 0164): its JSON Schema, and what the validated table becomes. */
export interface ConfigSection<T = unknown> {
  /** JSON Schema of the table as written (snake_case keys); `default`s are applied. */
  schema: JsonSchema;
  /** The validated table → what the config holds (camelCase, paths resolved); absent: the table itself. */
  toConfig?(table: Record<string, unknown>, at: ConfigSectionContext): T;
  /**
   * What a loaded plugin must provide when the table has an entry (a table of named entries another plugin may serve,
   * `[tools.script.<name>]`: `tools:script`), else a config error names the bundled plugin that does (ADR 0192); with
   * `key`, when that key holds one (`[extensions] modules`, ADR 0250), the error saying `why`.
   */
  needs?: string | { readonly provides: string; readonly key: string; readonly why: string };
  /**
   * Whether the checked table names modules that add connector types once loaded (`[extensions] modules`): other
   * `[connectors.<type>]` tables are then kept for them instead of refused (ADR 0250).
   */
  addsConnectorTypes?(table: Record<string, unknown>): boolean;
}

export interface ConfigSectionContext {
  /** A path as written → absolute: against the config root, `~` expanded (ADR 0114). */
  resolvePath(written: string): string;
  /** Throws the config error `<file>: <section path>.<key> <message>` (`key` '': the table itself). */
  fail(key: string, message: string): never;
  /** Every variable a `${VAR}` anywhere in the config refers to, sorted (the Lua bridge lets `env.get` read them). */
  readonly referencedEnv: readonly string[];
}

/**
 * A store engine's `[db]` section (`storeConfigs`, ADR 0239) and what it claims of the kernel's keys (ADR 0241): the
 * config loader picks the engine by asking every store's claims, so the kernel names no store.
 */
export interface StoreConfigSection<T = unknown> extends ConfigSection<T> {
  /** How messages name the store (`PostgreSQL`, `LanceDB`); absent: the engine. */
  label?: string;
  /** What it keeps at a local `[db] path`, for messages (`PostgreSQL's mirror`); absent: the label. */
  localPath?: string;
  /** The `[db] url` (or KBCTX_DATABASE_URL) it opens: a url of these schemes implies the engine, which needs one. */
  url?: StoreUrlClaim;
  /** `[db] path` values that are not local paths (object storage): kept as written, and they imply the engine. */
  remotePath?: StorePathClaim;
}

export interface StoreUrlClaim {
  /** URL protocols as `new URL().protocol` spells them (`postgres:`); the first is the one messages show. */
  readonly schemes: readonly string[];
  /** A full example, for messages (`postgres://user:password@host:5432/database`). */
  readonly example: string;
  /** What such a url names, for messages (`a PostgreSQL database`). */
  readonly kind: string;
}

export interface StorePathClaim {
  /** Whether a `[db] path` (as written) is one of these. */
  claims(path: string): boolean;
  /** What such a path names, for messages (`object storage`). */
  readonly kind: string;
}
