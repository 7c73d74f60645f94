// How a plugin reads the sections it owns (ADR 0192): the kernel's `Config` holds them as `unknown`, and the plugin's
// own config-section.ts types them with one of these (`gitConnectorsOf(config)`, `serverConfigOf(config)`).
import type { Config } from './types.ts';

// A configured plugin's top-level sections and connector tables are checked once it is imported, after `Config` is
// frozen: kept here by the config's `plugins` (which every copy of the config shares), ADR 0250.
interface Configured {
  readonly sections: Record<string, unknown>;
  readonly connectors: Record<string, Readonly<Record<string, unknown>>>;
}
const configured = new WeakMap<object, Configured>();

/** The section `name` (dotted under a kernel section: `tools.script`) as its plugin's `toConfig` made it. */
export function sectionOf<T>(config: Config, name: string): T {
  const found = name.split('.').reduce<unknown>((t, key) => (t as Record<string, unknown> | undefined)?.[key], config);
  return (found ?? configured.get(config.plugins)?.sections[name]) as T;
}

/** What a configured plugin's sections made (configured-sections.ts), for the config whose `plugins` this is. */
export function setConfiguredSections(plugins: object, { sections, connectors }: Configured): void {
  const had = configured.get(plugins);
  configured.set(plugins, {
    sections: { ...had?.sections, ...sections },
    connectors: { ...had?.connectors, ...connectors },
  });
}

/** The `[connectors.<type>.<name>]` tables of one type: name → table as its plugin's `toConfig` made it. */
export function connectorsOf<T>(config: Config, type: string): Readonly<Record<string, T>> {
  return (configured.get(config.plugins)?.connectors[type] ?? config.connectors[type] ?? {}) as Readonly<
    Record<string, T>
  >;
}
