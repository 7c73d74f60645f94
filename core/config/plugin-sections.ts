// The config sections plugins own (ADR 0164, 0178, 0239, 0250): what a plugin's `connectorConfigs`, `embedderConfigs`,
// `storeConfigs` and `configSections` declare, read the same way for the bundled set (registered before any config
// loads) and a configured plugin (when it is applied), and the check of each (the plugin's JSON Schema through
// json-check.ts, else ajv), its issues naming the plugin. check-owned.ts runs them. Must not import plugins.
import type { PluginMeta } from '../plugin.ts';
import type { ConfigSection, StoreConfigSection } from './config-section.ts';
import { requireOwn } from '../load/require-own.ts';
import type * as AjvCheck from './ajv-check.ts';
import { check as checkJson, DURATION_SCHEMA, inSubset, SchemaIssue, type JsonSchemaOf } from './json-check.ts';

type Check = (value: unknown, path: readonly string[]) => unknown;
type Table = Record<string, unknown>;

/** Runs `fn`; a SchemaIssue it throws names `plugin` (every check and `toConfig` of its sections runs in one). */
export function checkedBy<T>(plugin: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (!(error instanceof SchemaIssue) || error.plugin !== undefined) throw error;
    throw new SchemaIssue(error.path, error.message, plugin);
  }
}

export interface OwnedSection<S extends ConfigSection = ConfigSection> {
  /** The plugin that owns it. */
  readonly plugin: string;
  readonly section: S;
  /** Checks one table (defaults applied); a connector's also takes the host's `sync_interval`. */
  check(value: unknown, path: readonly string[]): Record<string, unknown>;
  /** Its JSON Schema for editors: as the plugin wrote it (a connector's with `sync_interval`). */
  readonly json: JsonSchemaOf;
}

export interface OwnedSections {
  /** Connector type → its section, in the order the plugins declare them. */
  readonly connectors: ReadonlyMap<string, OwnedSection>;
  /** `[embedding] provider` → the section of its own keys. */
  readonly embedders: ReadonlyMap<string, OwnedSection>;
  /** `[db] engine` → the section of the `[db]` keys its store reads, with its claims. */
  readonly stores: ReadonlyMap<string, OwnedSection<StoreConfigSection>>;
  /** Top-level section name → its section. */
  readonly sections: ReadonlyMap<string, OwnedSection>;
}

export const noSections = (): OwnedSections => ({
  connectors: new Map(),
  embedders: new Map(),
  stores: new Map(),
  sections: new Map(),
});

let bundled = noSections();

/**
 * What `plugins` declare that `taken` does not hold yet (a key two plugins claim stays the first one's), in their
 * order: the one reading of the four declarations, for the bundled set and each configured plugin alike.
 */
export function sectionsOf(plugins: readonly PluginMeta[], taken: OwnedSections = noSections()): OwnedSections {
  const connectors = new Map<string, OwnedSection>();
  const embedders = new Map<string, OwnedSection>();
  const stores = new Map<string, OwnedSection<StoreConfigSection>>();
  const sections = new Map<string, OwnedSection>();
  const add = <V>(into: Map<string, V>, have: ReadonlyMap<string, V>, key: string, make: () => V): void => {
    if (!into.has(key) && !have.has(key)) into.set(key, make());
  };
  for (const p of plugins) {
    for (const [type, section] of Object.entries(p.connectorConfigs ?? {}))
      add(connectors, taken.connectors, type, () => connectorSection(p.name, section));
    for (const [provider, section] of Object.entries(p.embedderConfigs ?? {}))
      add(embedders, taken.embedders, provider, () => ownedSection(p.name, section));
    for (const [engine, section] of Object.entries(p.storeConfigs ?? {}))
      add(stores, taken.stores, engine, () => ownedSection(p.name, section));
    for (const [name, section] of Object.entries(p.configSections ?? {}))
      add(sections, taken.sections, name, () => ownedSection(p.name, section));
  }
  return { connectors, embedders, stores, sections };
}

/** `a`'s sections, then `b`'s that `a` does not hold. */
export const joinSections = (a: OwnedSections, b: OwnedSections): OwnedSections => {
  const join = <V>(x: ReadonlyMap<string, V>, y: ReadonlyMap<string, V>): Map<string, V> =>
    new Map([...x, ...[...y].filter(([k]) => !x.has(k))]);
  return {
    connectors: join(a.connectors, b.connectors),
    embedders: join(a.embedders, b.embedders),
    stores: join(a.stores, b.stores),
    sections: join(a.sections, b.sections),
  };
};

/** Called with the bundled set (registry/bundled.ts), before any config loads. */
export function registerConfigSections(plugins: readonly PluginMeta[]): void {
  bundled = sectionsOf(plugins);
}

export const bundledSections = (): OwnedSections => bundled;

/** The connector types the bundled plugins own, in their order (`filesystem`, `git`, `s3`, `script`). */
export const bundledConnectorTypes = (): string[] => [...bundled.connectors.keys()];

/** A schema outside json-check.ts's subset: ajv-check.ts required then (no bundled section needs it: ADR 0130). */
const ajvCheck = (json: Record<string, unknown>, owner: string): Check =>
  requireOwn<typeof AjvCheck>(import.meta.url, './ajv-check.ts').ajvCheck(json, owner);

export function ownedSection<S extends ConfigSection>(plugin: string, section: S): OwnedSection<S> {
  const { schema } = section;
  const check = inSubset(schema)
    ? (v: unknown, path: readonly string[]) => checkJson(schema, v, path)
    : ajvCheck(schema, plugin);
  // Editors see the plugin's schema as written (config/kbctx.schema.json).
  return { plugin, section, check: (v, path) => checkedBy(plugin, () => check(v, path)) as Table, json: schema };
}

const SYNC_INTERVAL: JsonSchemaOf = { ...DURATION_SCHEMA }; // per connector; absent: [sync] interval

/** A connector type's section: the plugin's schema plus `sync_interval`, which the host schedules by. */
export function connectorSection(plugin: string, section: ConfigSection): OwnedSection {
  const own = ownedSection(plugin, section).check;
  const properties = (section.schema['properties'] ?? {}) as JsonSchemaOf;
  return {
    plugin,
    section,
    check(v, path) {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) return own(v, path);
      const { sync_interval: interval, ...rest } = v as Record<string, unknown>;
      const at = [...path, 'sync_interval'];
      return {
        ...own(rest, path),
        // The host's key: its issue names no plugin.
        sync_interval: interval === undefined ? undefined : checkJson(SYNC_INTERVAL, interval, at),
      };
    },
    json: { ...section.schema, properties: { ...properties, sync_interval: SYNC_INTERVAL } },
  };
}
