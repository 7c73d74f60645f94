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
   * A table of named entries another plugin may serve (`[tools.script.<name>]`): what a loaded plugin must provide
   * when it has any (`tools:script`), else a config error names the bundled plugin that does (ADR 0192).
   */
  needs?: string;
}

export interface ConfigSectionContext {
  /** A path as written → absolute: against the config root, `~` expanded (ADR 0114). */
  resolvePath(written: string): string;
  /** Throws the config error `<file>: <section path>.<key> <message>` (`key` '': the table itself). */
  fail(key: string, message: string): never;
  /** Every variable a `${VAR}` anywhere in the config refers to, sorted (the Lua bridge lets `env.get` read them). */
  readonly referencedEnv: readonly string[];
}
