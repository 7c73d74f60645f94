// A configured plugin's sections checked when it is applied (ADR 0164, 0241), as the config loader checks the bundled
// set's (plugin-sections.ts): its `connectorConfigs` (each `[connectors.<type>.<name>]` of its types, defaults
// applied), its `storeConfigs` (the `[db]` keys no bundled store declares) and `embedderConfigs` (the `[embedding]`
// keys of a provider no bundled plugin owns), each through the plugin's schema and `toConfig`, an error naming the key
// path and the plugin. What they become reaches the connector, store and embedder taps (core/app/index-host.ts).
import path from 'node:path';
import type { Plugin } from '../plugin.ts';
import type { StoreConfigSection } from './config-section.ts';
import { configError } from '../domain/errors.ts';
import { checkUrlClaim } from './db-section.ts';
import { sectionToConfig } from './owned-to-config.ts';
import { connectorSection, ownedSection, type OwnedSection } from './plugin-sections.ts';
import { SchemaIssue, UNKNOWN_KEY } from './json-check.ts';
import type { DeferredSections } from './types.ts';

type Table = Record<string, unknown>;
/** `[connectors.<type>.<name>]` tables: type → name → table. */
export type ConnectorTables = Readonly<Record<string, Readonly<Record<string, Readonly<Table>>>>>;

interface Checked {
  /** The `StoreOptions` fields the configured stores' sections made (merged), and `path` as written if claimed. */
  store: Table;
  /** The `[db]` keys a configured store declares. */
  readonly claimed: Set<string>;
  /** The provider's own keys, as its configured plugin's section made them. */
  embedder?: Table;
  readonly stores: Map<string, OwnedSection<StoreConfigSection>>;
  readonly embedders: Map<string, OwnedSection>;
  /** The connector types the configured plugins own, in apply order, and type → name → the checked table. */
  readonly connectors: Map<string, OwnedSection>;
  readonly tables: Map<string, Record<string, Readonly<Table>>>;
}

const perKernel = new WeakMap<object, Checked>();

function checkedOf(kernel: object): Checked {
  let checked = perKernel.get(kernel);
  if (!checked)
    perKernel.set(
      kernel,
      (checked = {
        ...{ store: {}, claimed: new Set(), stores: new Map(), embedders: new Map() },
        ...{ connectors: new Map(), tables: new Map() },
      }),
    );
  return checked;
}

export interface ConfigWhere {
  readonly configFile?: string | null | undefined;
  readonly baseDir: string;
  /** `[connectors.<type>]` of types no bundled plugin owns, as written. */
  readonly connectors?: ConnectorTables | undefined;
  /** The `[db]` and `[embedding]` keys no bundled plugin declares (Config.plugins.owned). */
  readonly owned?: DeferredSections | undefined;
}

/** The config file as errors name it. */
export const configLabel = ({ configFile, baseDir }: ConfigWhere): string =>
  configFile ? path.relative(baseDir, configFile) || configFile : '(config)';

/** Checks and converts what `plugin` declares of the deferred keys; a bad value is a config error naming the key. */
export function checkConfiguredSections(kernel: object, plugin: Plugin, where: ConfigWhere): void {
  const checked = checkedOf(kernel);
  const deferred = where.owned;
  for (const [type, section] of Object.entries(plugin.connectorConfigs ?? {})) {
    const owned = connectorSection(plugin.name, section);
    if (checked.connectors.has(type)) continue;
    checked.connectors.set(type, owned);
    const instances = Object.entries(where.connectors?.[type] ?? {});
    attributed(plugin, where, () => {
      const tables = instances.map(([name, t]) => [name, Object.freeze(owned.check(t, ['connectors', type, name]))]);
      checked.tables.set(type, Object.fromEntries(tables));
    });
  }
  const context = {
    resolvePath: (p: string) => path.resolve(where.baseDir, p),
    referencedEnv: deferred?.referencedEnv ?? [],
  };
  for (const [engine, section] of Object.entries(plugin.storeConfigs ?? {})) {
    const owned = ownedSection(plugin.name, section);
    if (!checked.stores.has(engine)) checked.stores.set(engine, owned);
    if (!deferred) continue;
    const { db } = deferred;
    const keys = Object.keys((section.schema['properties'] ?? {}) as Table);
    const own = Object.fromEntries(Object.entries(db.keys).filter(([k]) => keys.includes(k)));
    attributed(plugin, where, () => {
      const fields = sectionToConfig(owned, owned.check(own, ['db']), ['db'], context) as Table;
      if (engine === db.engine) {
        checkUrlClaim(engine, section, db.url);
        if (section.remotePath?.claims(db.path)) fields['path'] = db.path.trim();
      }
      checked.store = { ...checked.store, ...fields };
    });
    for (const k of keys) checked.claimed.add(k);
  }
  const embedding = deferred?.embedding;
  for (const [provider, section] of Object.entries(plugin.embedderConfigs ?? {})) {
    const owned = ownedSection(plugin.name, section);
    if (!checked.embedders.has(provider)) checked.embedders.set(provider, owned);
    if (embedding?.provider !== provider || checked.embedder) continue;
    attributed(plugin, where, () => {
      // Keys left unwritten stay absent, as for a bundled provider (owned-keys.ts).
      const parsed = owned.check({ ...embedding.extra }, ['embedding']);
      const extra = Object.fromEntries(Object.entries(parsed).filter(([, v]) => v !== undefined));
      const table = { ...embedding.shared, ...extra };
      checked.embedder = section.toConfig ? (sectionToConfig(owned, table, ['embedding'], context) as Table) : extra;
    });
  }
}

/** Once every plugin is applied: a `[db]` key no store declares is unknown, as the config loader words it. */
export function checkUnclaimedDbKeys(kernel: object, deferred: DeferredSections | undefined, where: ConfigWhere): void {
  const claimed = checkedOf(kernel).claimed;
  const unknown = Object.keys(deferred?.db.keys ?? {}).find((k) => !claimed.has(k));
  if (unknown !== undefined)
    throw configError(`${configLabel(where)}: db.${unknown} ${UNKNOWN_KEY}; no loaded store plugin declares it`);
}

function attributed(plugin: Plugin, where: ConfigWhere, run: () => void): void {
  try {
    run();
  } catch (error) {
    if (!(error instanceof SchemaIssue)) throw error;
    throw configError(
      `${configLabel(where)}: ${error.path.join('.')} ${error.message} (checked by plugin '${plugin.name}')`,
    );
  }
}

/** The `StoreOptions` fields the configured store plugins' sections made (empty when none). */
export const configuredStoreOptions = (kernel: object): Readonly<Table> => perKernel.get(kernel)?.store ?? {};

/** The provider's own keys as a configured plugin's `embedderConfigs` made them; undefined when none checked them. */
export const configuredEmbedderOptions = (kernel: object): Readonly<Table> | undefined =>
  perKernel.get(kernel)?.embedder;

/** The checked table of a configured connector of a plugin's type; undefined when no schema checked it. */
export const checkedConnectorOptions = (kernel: object, type: string, name: string): Readonly<Table> | undefined =>
  perKernel.get(kernel)?.tables.get(type)?.[name];

/** The sections the configured plugins declared (for `kbctx config schema`). */
export const configuredStoreSections = (kernel: object): ReadonlyMap<string, OwnedSection<StoreConfigSection>> =>
  perKernel.get(kernel)?.stores ?? new Map();
export const configuredEmbedderSections = (kernel: object): ReadonlyMap<string, OwnedSection> =>
  perKernel.get(kernel)?.embedders ?? new Map();
export const configuredConnectorSections = (kernel: object): ReadonlyMap<string, OwnedSection> =>
  perKernel.get(kernel)?.connectors ?? new Map();
