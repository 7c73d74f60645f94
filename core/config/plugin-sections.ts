// The config sections plugins own (ADR 0164, 0178, 0239): each bundled plugin's `connectorConfigs`, `embedderConfigs`,
// `storeConfigs` and `configSections`, registered with the bundled set before any config loads, and the validator of
// each (the plugin's JSON Schema through from-json-schema.ts, else ajv). Must not import plugins.
import type { PluginMeta } from '../plugin.ts';
import type { ConfigSection, StoreConfigSection } from './config-section.ts';
import { requireOwn } from '../load/require-own.ts';
import type * as AjvCheck from './ajv-check.ts';
import { fromJsonSchema } from './from-json-schema.ts';
import { duration, optional, type JsonSchemaOf, type Schema } from './schema-kit.ts';

export interface OwnedSection<S extends ConfigSection = ConfigSection> {
  /** The plugin that owns it. */
  readonly plugin: string;
  readonly section: S;
  /** Checks one table (defaults applied); a connector's also takes the host's `sync_interval`. */
  readonly validator: Schema<Record<string, unknown>>;
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

/**
 * A schema outside from-json-schema.ts's subset: ajv-check.ts required then (no bundled section needs it: ADR 0130).
 */
const ajvSchema = (json: Record<string, unknown>, owner: string): Schema<unknown> =>
  requireOwn<typeof AjvCheck>(import.meta.url, './ajv-check.ts').ajvSchema(json, owner);

export function ownedSection<S extends ConfigSection>(plugin: string, section: S): OwnedSection<S> {
  const check = (fromJsonSchema(section.schema) ?? ajvSchema(section.schema, plugin)) as Schema<
    Record<string, unknown>
  >;
  // Editors see the plugin's schema as written (config/kbctx.schema.json).
  return { plugin, section, validator: { parse: check.parse, json: () => section.schema } };
}

const syncInterval = optional(duration()); // per connector; absent: [sync] interval

/** A connector type's section: the plugin's schema plus `sync_interval`, which the host schedules by. */
export function connectorSection(plugin: string, section: ConfigSection): OwnedSection {
  const own = ownedSection(plugin, section).validator;
  const validator: Schema<Record<string, unknown>> = {
    parse(v, path) {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) return own.parse(v, path);
      const { sync_interval: interval, ...rest } = v as Record<string, unknown>;
      const table = own.parse(rest, path);
      return {
        ...table,
        sync_interval: interval === undefined ? undefined : syncInterval.parse(interval, [...path, 'sync_interval']),
      };
    },
    json: () => withSyncInterval(own.json()),
  };
  return { plugin, section, validator };
}

function withSyncInterval(json: JsonSchemaOf): JsonSchemaOf {
  const properties = (json['properties'] ?? {}) as JsonSchemaOf;
  return { ...json, properties: { ...properties, sync_interval: syncInterval.json() } };
}
