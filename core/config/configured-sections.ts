// A configured plugin's sections, checked when it is applied (ADR 0164, 0241, 0250) by the path the config loader
// takes for the bundled set's (check-owned.ts): the tables the loader left, as written (connector types, `[db]` keys
// and the `[embedding]` provider no bundled plugin owns), go through the plugin's schemas and `toConfig`, an error
// naming the key path and the plugin. What they become reaches the connector, store and embedder taps
// (core/app/index-host.ts); what is left goes on to the next plugin.
import path from 'node:path';
import type { Plugin } from '../plugin.ts';
import { configError } from '../domain/errors.ts';
import { checkUrlClaim } from './db-section.ts';
import { checkOwned, type OwnedTables } from './check-owned.ts';
import { bundledSections, joinSections, noSections, sectionsOf, type OwnedSections } from './plugin-sections.ts';
import { issueText, SchemaIssue, UNKNOWN_KEY } from './json-check.ts';
import type { DeferredSections } from './types.ts';
import { setConfiguredSections } from './sections-of.ts';

type Table = Record<string, unknown>;
/** `[connectors.<type>.<name>]` tables: type → name → table. */
export type ConnectorTables = Readonly<Record<string, Readonly<Record<string, Readonly<Table>>>>>;

interface Checked {
  /** What the configured plugins declared, in apply order. */
  owned: OwnedSections;
  /** What no configured plugin has claimed yet, as written. */
  left: OwnedTables;
  /** The `StoreOptions` fields the configured stores' sections made (merged), and `path` as written if claimed. */
  store: Table;
  /** The provider's own keys, as its configured plugin's section made them. */
  embedder?: Table;
  /** Type → name → the table as the type's section made it. */
  readonly connectors: Map<string, Record<string, unknown>>;
}

const perKernel = new WeakMap<object, Checked>();

export interface ConfigWhere {
  readonly configFile?: string | null | undefined;
  readonly baseDir: string;
  /** What the bundled set's sections left (Config.plugins.owned). */
  readonly owned?: DeferredSections | undefined;
}

function checkedOf(kernel: object, where: ConfigWhere): Checked {
  let checked = perKernel.get(kernel);
  if (!checked) {
    const left = where.owned?.left ?? { sections: {}, connectors: {}, db: {} };
    perKernel.set(kernel, (checked = { owned: noSections(), left, store: {}, connectors: new Map() }));
  }
  return checked;
}

/** The config file as errors name it. */
export const configLabel = ({ configFile, baseDir }: ConfigWhere): string =>
  configFile ? path.relative(baseDir, configFile) || configFile : '(config)';

/** Checks and converts what `plugin` declares of the tables left; a bad value is a config error naming the key. */
export function checkConfiguredSections(kernel: object, plugin: Plugin, where: ConfigWhere): void {
  const checked = checkedOf(kernel, where);
  // What the bundled set or an earlier plugin claimed stays theirs (the first claimer keeps a key).
  const mine = sectionsOf([plugin], joinSections(bundledSections(), checked.owned));
  const dotted = [...mine.sections.keys()].find((name) => name.includes('.'));
  if (dotted !== undefined)
    throw configError(
      `plugin '${plugin.name}' declares the section ${dotted}: a configured plugin's configSections are top-level ` +
        `tables ([${dotted.split('.')[0]}] is the kernel's)`,
    );
  checked.owned = joinSections(checked.owned, mine);
  const context = {
    resolvePath: (p: string) => path.resolve(where.baseDir, p),
    referencedEnv: where.owned?.referencedEnv ?? [],
  };
  try {
    const own = checkOwned(mine, checked.left, context);
    for (const [type, tables] of Object.entries(own.connectors)) checked.connectors.set(type, tables);
    const db = where.owned?.db;
    for (const [engine, { section }] of mine.stores) {
      if (!db || engine !== db.engine) continue;
      checkUrlClaim(engine, section, db.url);
      if (section.remotePath?.claims(db.path)) own.db['path'] = db.path.trim();
    }
    checked.store = { ...checked.store, ...own.db };
    checked.embedder ??= own.embedding;
    // Read with `sectionOf`/`connectorsOf`, as a bundled plugin reads its own (the config's `plugins` keys them).
    setConfiguredSections(where, own);
    checked.left = own.left;
  } catch (error) {
    if (error instanceof SchemaIssue) throw configError(issueText(configLabel(where), error));
    throw error;
  }
}

/**
 * Once every plugin is applied: a `[db]` key no store declares, or a top-level table no plugin declares, is unknown, as
 * the config loader words it.
 */
export function checkUnclaimed(kernel: object, where: ConfigWhere): void {
  const { left } = checkedOf(kernel, where);
  const key = Object.keys(left.db)[0];
  if (key !== undefined)
    throw configError(`${configLabel(where)}: db.${key} ${UNKNOWN_KEY}; no loaded store plugin declares it`);
  const section = Object.keys(left.sections)[0];
  if (section !== undefined)
    throw configError(`${configLabel(where)}: ${section} ${UNKNOWN_KEY}; no loaded plugin declares it`);
}

/** The `StoreOptions` fields the configured store plugins' sections made (empty when none). */
export const configuredStoreOptions = (kernel: object): Readonly<Table> => perKernel.get(kernel)?.store ?? {};

/** The provider's own keys as a configured plugin's `embedderConfigs` made them; undefined when none checked them. */
export const configuredEmbedderOptions = (kernel: object): Readonly<Table> | undefined =>
  perKernel.get(kernel)?.embedder;

/** The table of a configured connector of a plugin's type, as its section made it; undefined when none checked it. */
export const checkedConnectorOptions = (kernel: object, type: string, name: string): Readonly<Table> | undefined =>
  perKernel.get(kernel)?.connectors.get(type)?.[name] as Readonly<Table> | undefined;

/** The sections the configured plugins declared (for `kbctx config schema`). */
export const configuredSections = (kernel: object): OwnedSections => perKernel.get(kernel)?.owned ?? noSections();
