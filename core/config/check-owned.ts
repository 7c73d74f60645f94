// The one path a plugin's config sections take (ADR 0250), for the bundled set when the config loads and for a
// configured plugin when it is applied: each table its sections own checked by the plugin's schema (defaults applied)
// and made into what the config holds by its `toConfig`, an issue naming the key path and the plugin; what no section
// claims is handed back as written, for a plugin applied later or an error.
import type { ConfigSectionContext } from './config-section.ts';
import { checkedBy, type OwnedSection, type OwnedSections } from './plugin-sections.ts';
import { check, SchemaIssue } from './json-check.ts';

type Table = Record<string, unknown>;
type Context = Pick<ConfigSectionContext, 'resolvePath' | 'referencedEnv'>;

/** The tables of the config plugins may own, as written. */
export interface OwnedTables {
  /** Section name (`server`; under a kernel table `tools.script`) → its table (undefined: absent, all defaults). */
  readonly sections: Readonly<Record<string, unknown>>;
  /** `[connectors.<type>.<name>]`: type → name → table. */
  readonly connectors: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** `[embedding]`: the kernel's keys (`provider`, `model`, …, as checked) and the provider's own; undefined: owned. */
  readonly embedding?: { readonly shared: Readonly<Table>; readonly extra: Readonly<Table> } | undefined;
  /** `[db]`'s keys beyond the kernel's (`engine`, `path`, `url`). */
  readonly db: Readonly<Table>;
}

/** The owned tables as their plugins' sections made them, and what is left. */
export interface OwnedConfig {
  /** Section name → what its `toConfig` made (every declared section; absent, its defaults). */
  readonly sections: Record<string, unknown>;
  /** Type → name → table as its `toConfig` made it (every declared type, in declaration order). */
  readonly connectors: Record<string, Record<string, unknown>>;
  /** `<type>:<name>` → its `sync_interval` (seconds), the written ones. */
  readonly intervals: Record<string, number>;
  /** The provider's own `[embedding]` keys as its section made them; undefined when no section of these owns it. */
  readonly embedding: Table | undefined;
  /** The `StoreOptions` fields the store sections made of their `[db]` keys, merged (`poolSize`, …). */
  readonly db: Table;
  /** What no section of these claims, as written. */
  readonly left: OwnedTables;
  /** A section names modules that add connector types (`addsConnectorTypes`): other types wait for them. */
  readonly addsConnectorTypes: boolean;
}

const NAMED = { type: 'object', additionalProperties: {} };
const propertiesOf = (s: OwnedSection): Table => (s.section.schema['properties'] ?? {}) as Table;

/** Checks and converts what `owned` declares of `tables`; a SchemaIssue names the key path and the owning plugin. */
export function checkOwned(owned: OwnedSections, tables: OwnedTables, context: Context): OwnedConfig {
  const convert = (s: OwnedSection, table: Table, at: readonly string[]): unknown =>
    sectionToConfig(s, table, at, context);
  const sections: Record<string, unknown> = {};
  let addsConnectorTypes = false;
  for (const [name, s] of owned.sections) {
    const at = name.split('.');
    const table = s.check(tables.sections[name] ?? {}, at);
    addsConnectorTypes ||= s.section.addsConnectorTypes?.(table) === true;
    sections[name] = convert(s, table, at);
  }
  const connectors: Record<string, Record<string, unknown>> = {};
  const intervals: Record<string, number> = {};
  for (const [type, s] of owned.connectors) {
    const at = ['connectors', type];
    const instances = Object.entries(check(NAMED, tables.connectors[type] ?? {}, at) as Record<string, unknown>);
    connectors[type] = Object.fromEntries(
      instances.map(([name, written]) => {
        const table = s.check(written, [...at, name]);
        if (typeof table['sync_interval'] === 'number') intervals[`${type}:${name}`] = table['sync_interval'];
        return [name, convert(s, table, [...at, name])];
      }),
    );
  }
  const embedding = tables.embedding && owned.embedders.get(tables.embedding.shared['provider'] as string);
  const db: Table = {};
  const claimed = new Set<string>();
  for (const s of owned.stores.values()) {
    const keys = Object.keys(propertiesOf(s));
    const own = Object.fromEntries(Object.entries(tables.db).filter(([k]) => keys.includes(k)));
    Object.assign(db, convert(s, s.check(own, ['db']), ['db']));
    for (const k of keys) claimed.add(k);
  }
  return {
    sections,
    connectors,
    intervals,
    embedding: embedding && tables.embedding ? providerKeys(embedding, tables.embedding, convert) : undefined,
    db,
    addsConnectorTypes,
    left: {
      sections: Object.fromEntries(Object.entries(tables.sections).filter(([k]) => !owned.sections.has(k))),
      connectors: Object.fromEntries(Object.entries(tables.connectors).filter(([k]) => !owned.connectors.has(k))),
      embedding: embedding ? undefined : tables.embedding,
      db: Object.fromEntries(Object.entries(tables.db).filter(([k]) => !claimed.has(k))),
    },
  };
}

/** The provider's keys through its section; its `toConfig` sees the shared keys too (`model`, `dims` …). */
function providerKeys(
  owner: OwnedSection,
  { shared, extra }: NonNullable<OwnedTables['embedding']>,
  convert: (s: OwnedSection, table: Table, at: readonly string[]) => unknown,
): Table {
  // Keys left unwritten stay absent (not `undefined`): the plugin sees the table as written, defaults applied.
  const own = Object.fromEntries(
    Object.entries(owner.check({ ...extra }, ['embedding'])).filter(([, v]) => v !== undefined),
  );
  return owner.section.toConfig ? (convert(owner, { ...shared, ...own }, ['embedding']) as Table) : own;
}

/** One table through its section's `toConfig` (a `fail` is a SchemaIssue at `<at>.<key>`); absent: the table. */
export function sectionToConfig(
  { plugin, section }: OwnedSection,
  table: Table,
  at: readonly string[],
  context: Context,
): unknown {
  const fail = (key: string, message: string): never => {
    throw new SchemaIssue(key === '' ? at : [...at, key], message);
  };
  return section.toConfig ? checkedBy(plugin, () => section.toConfig!(table, { ...context, fail })) : table;
}

/**
 * The sections a plugin serves, as written: each owned section declaring `needs` with an entry (the Lua bridge's
 * `[tools.script]`, agents-inline's `[agents.inline]`), or with one under its `key` (`[extensions] modules`).
 */
export function servedSections(
  owned: OwnedSections,
  written: OwnedTables['sections'],
): { section: string; provides: string; why?: string }[] {
  const entries = (v: unknown): string[] => (typeof v === 'object' && v !== null ? Object.keys(v) : []);
  return [...owned.sections].flatMap(([name, { section }]) => {
    const { needs } = section;
    if (needs === undefined) return [];
    const table = written[name] as Record<string, unknown> | undefined;
    if (typeof needs === 'string')
      return entries(table)
        .slice(0, 1)
        .map((entry) => ({ section: `[${name}.${entry}]`, provides: needs }));
    return entries(table?.[needs.key]).length > 0
      ? [{ section: `[${name}] ${needs.key}`, provides: needs.provides, why: needs.why }]
      : [];
  });
}
