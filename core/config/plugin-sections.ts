// The config sections plugins own (ADR 0164, 0178, 0239): each bundled plugin's `connectorConfigs`, `embedderConfigs`,
// `storeConfigs` and `configSections`, registered with the bundled set before any config loads, and the check of each
// (the plugin's JSON Schema through json-check.ts, else ajv). Must not import plugins.
import type { PluginMeta } from '../plugin.ts';
import type { ConfigSection, StoreConfigSection } from './config-section.ts';
import { requireOwn } from '../load/require-own.ts';
import type * as AjvCheck from './ajv-check.ts';
import { check as checkJson, DURATION_SCHEMA, inSubset, type JsonSchemaOf } from './json-check.ts';

type Check = (value: unknown, path: readonly string[]) => unknown;

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

let bundled: OwnedSections = { connectors: new Map(), embedders: new Map(), stores: new Map(), sections: new Map() };

/** Called with the bundled set (core/app/bundled-set.ts); a key two plugins claim stays the first one's. */
export function registerConfigSections(plugins: readonly PluginMeta[]): void {
  const connectors = new Map<string, OwnedSection>();
  const embedders = new Map<string, OwnedSection>();
  const stores = new Map<string, OwnedSection<StoreConfigSection>>();
  const sections = new Map<string, OwnedSection>();
  for (const p of plugins) {
    for (const [type, section] of Object.entries(p.connectorConfigs ?? {}))
      if (!connectors.has(type)) connectors.set(type, connectorSection(p.name, section));
    for (const [provider, section] of Object.entries(p.embedderConfigs ?? {}))
      if (!embedders.has(provider)) embedders.set(provider, ownedSection(p.name, section));
    for (const [engine, section] of Object.entries(p.storeConfigs ?? {}))
      if (!stores.has(engine)) stores.set(engine, ownedSection(p.name, section));
    for (const [name, section] of Object.entries(p.configSections ?? {}))
      if (!sections.has(name)) sections.set(name, ownedSection(p.name, section));
  }
  bundled = { connectors, embedders, stores, sections };
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
  return { plugin, section, check: check as OwnedSection['check'], json: schema };
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
        sync_interval: interval === undefined ? undefined : checkJson(SYNC_INTERVAL, interval, at),
      };
    },
    json: { ...section.schema, properties: { ...properties, sync_interval: SYNC_INTERVAL } },
  };
}
