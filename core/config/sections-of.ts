// How a plugin reads the sections it owns (ADR 0192): the kernel's `Config` holds them as `unknown`, and the plugin's
// own config-section.ts types them with one of these (`gitConnectorsOf(config)`, `serverConfigOf(config)`).
import type { Config } from './types.ts';

/** The section `name` (dotted under a kernel section: `tools.script`) as its plugin's `toConfig` made it. */
export function sectionOf<T>(config: Config, name: string): T {
  return name.split('.').reduce<unknown>((t, key) => (t as Record<string, unknown> | undefined)?.[key], config) as T;
}

/** The `[connectors.<type>.<name>]` tables of one type: name → table as its plugin's `toConfig` made it. */
export function connectorsOf<T>(config: Config, type: string): Readonly<Record<string, T>> {
  return (config.connectors[type] ?? {}) as Readonly<Record<string, T>>;
}
