// The sections plugins own, from the validated tree to what `Config` holds (ADR 0164, 0192): each through its
// plugin's `toConfig`, placed where its name says (`server` at the top, `tools.script` under `tools`, connector types
// under `connectors`). Names no plugin: whatever the bundled set declared is what there is.
import type { ConfigSectionContext } from './config-section.ts';
import type { OwnedSection, OwnedSections } from './plugin-sections.ts';
import type { RawConfig } from './schema.ts';
import { SchemaIssue } from './json-check.ts';
import type { PluginsConfig } from './types.ts';

type Table = Record<string, unknown>;

export interface OwnedConfig {
  /** Top-level owned sections by name (`server`), and the kernel sections holding dotted ones (`tools`, `agents`). */
  readonly sections: Record<string, unknown>;
  /** `[tools.<form>]` / `[agents.<form>]`: parent → form → section. */
  readonly under: Record<string, Table>;
  /** The provider's own `[embedding]` keys. */
  readonly embedding: Table;
  /** The stores' `[db]` keys, merged (`keywordEngine`, `poolSize`, …). */
  readonly db: Table;
  /**
   * Type → name → table: the owned types in declaration order (each present), then the others as written, by
   * name.
   */
  readonly connectors: Record<string, Table>;
}

/** The owned sections and connector tables, each as its plugin's `toConfig` makes it. */
export function ownedToConfig(
  owned: OwnedSections,
  raw: RawConfig,
  context: Pick<ConfigSectionContext, 'resolvePath' | 'referencedEnv'>,
): OwnedConfig {
  const convert = (s: OwnedSection, table: Table, at: readonly string[]): unknown =>
    sectionToConfig(s, table, at, context);
  const sections: Record<string, unknown> = {};
  const under: Record<string, Table> = {};
  for (const [name, s] of owned.sections) {
    const [parent, form] = name.split('.') as [string, string | undefined];
    if (form === undefined) sections[name] = convert(s, raw[name] as Table, [name]);
    else (under[parent] ??= {})[form] = convert(s, (raw[parent] as Record<string, Table>)[form]!, [parent, form]);
  }
  const connectors: Record<string, Table> = {};
  for (const [type, s] of owned.connectors) {
    const instances = raw.connectors[type] ?? {};
    connectors[type] = Object.fromEntries(
      Object.entries(instances).map(([name, table]) => [name, convert(s, table, ['connectors', type, name])]),
    );
  }
  for (const type of Object.keys(raw.connectors.extra).sort()) connectors[type] = raw.connectors.extra[type] as Table;
  // The provider's own keys, as its plugin's toConfig makes them (which sees the shared keys too: `model`, `dims` …).
  const { owner, extra, ...sharedKeys } = raw.embedding;
  const embedding = owner?.section.toConfig
    ? (convert(owner, { ...sharedKeys, ...extra }, ['embedding']) as Table)
    : extra;
  const db = Object.assign({}, ...raw.db.stores.map((s) => convert(s.owner, s.table, ['db']))) as Table;
  return { sections, under, embedding, connectors, db };
}

/** One table through its section's `toConfig` (a `fail` is a SchemaIssue at `<at>.<key>`); absent: the table. */
export function sectionToConfig(
  { section }: OwnedSection,
  table: Table,
  at: readonly string[],
  context: Pick<ConfigSectionContext, 'resolvePath' | 'referencedEnv'>,
): unknown {
  const fail = (key: string, message: string): never => {
    throw new SchemaIssue(key === '' ? at : [...at, key], message);
  };
  return section.toConfig ? section.toConfig(table, { ...context, fail }) : table;
}

/**
 * The sections a plugin serves: each owned section declaring `needs` (the Lua bridge's `[tools.script]`) with an
 * entry (`[agents.inline]`: agents-inline), compiled extensions.
 */
export function servedSections(raw: RawConfig, owned: OwnedSections): NonNullable<PluginsConfig['needs']> {
  const first = (section: string, table: object | undefined, provides: string) =>
    Object.keys(table ?? {})
      .slice(0, 1)
      .map((name) => ({ section: `[${section}.${name}]`, provides }));
  const at = (name: string): Table | undefined =>
    name.split('.').reduce<Table | undefined>((t, key) => t?.[key] as Table | undefined, raw);
  return [
    ...[...owned.sections].flatMap(([name, { section }]) =>
      section.needs ? first(name, at(name), section.needs) : [],
    ),
    ...(raw.extensions.modules.length > 0
      ? [{ section: '[extensions] modules', provides: 'extensions:modules', why: 'compiled extensions are loaded by' }]
      : []),
  ];
}
