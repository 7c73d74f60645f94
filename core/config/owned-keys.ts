// The kernel's tables whose other keys plugins own, Context Harness's keys staying where its ctx.toml writes them:
// `[embedding]` (ADR 0178: the keys every provider shares; the rest the provider's plugin's, `embedderConfigs`) and
// `[db]` (ADR 0239: the keys that choose the store; the rest the stores', `storeConfigs`). Here the kernel's keys are
// checked and the others kept as written: check-owned.ts checks each against its plugin's schema at `<section>.<key>`
// (ADR 0250).
import type { OwnedSection, OwnedSections } from './plugin-sections.ts';
import type { Part } from './schema.ts';
import { check, SchemaIssue, UNKNOWN_KEY, type JsonSchemaOf } from './json-check.ts';

type Table = Record<string, unknown>;

/** `table`'s own keys checked (absent: `{}`), the others returned in `extra`. */
function keep<T>(table: JsonSchemaOf, v: unknown, path: readonly string[]): T & { extra: Table } {
  const all = check(table, v ?? {}, path) as Table;
  const own = table['properties'] as Table;
  const extra = Object.fromEntries(Object.entries(all).filter(([k]) => !(k in own)));
  return { ...Object.fromEntries(Object.keys(own).map((k) => [k, all[k]])), extra } as T & { extra: Table };
}

const shared: JsonSchemaOf = {
  type: 'object',
  properties: {
    // disabled | openai | ollama | local | a plugin's provider (transformers); other keys are that provider's.
    provider: { type: 'string', default: 'disabled' },
    model: { type: 'string' },
    dims: { type: 'integer', minimum: 1 },
    batch_size: { type: 'integer', minimum: 1, default: 64 },
    concurrency: { type: 'integer', minimum: 1, default: 2 },
  },
  additionalProperties: true,
};

/** The section as validated: the shared keys, and `extra`, the provider's own, as written. */
export interface RawEmbedding {
  provider: string;
  model?: string | undefined;
  dims?: number | undefined;
  batch_size: number;
  concurrency: number;
  extra: Table;
}

const propertiesOf = (s: OwnedSection): JsonSchemaOf => (s.section.schema['properties'] ?? {}) as JsonSchemaOf;

export function embeddingSection(owned: OwnedSections): Part<RawEmbedding> {
  return { parse: (v, path) => keep<RawEmbedding>(shared, v, path), json: jsonOf(owned) };
}

/**
 * `provider = "disabled"` reads nothing: the keys of any registered provider may stay written (switching back is one
 * line); others are unknown.
 */
export function checkDisabledKeys(owned: OwnedSections, extra: Readonly<Table>): void {
  const known = new Set([...owned.embedders.values()].flatMap((s) => Object.keys(propertiesOf(s))));
  const unknown = Object.keys(extra).find((k) => !known.has(k));
  if (unknown !== undefined) throw new SchemaIssue(['embedding', unknown], UNKNOWN_KEY);
}

/** For editors: the kernel's properties, then each owner's it does not have. */
function withOwned(kernel: JsonSchemaOf, owners: Iterable<OwnedSection>): JsonSchemaOf {
  const all = { ...kernel };
  for (const s of owners) for (const [k, rule] of Object.entries(propertiesOf(s))) all[k] ??= rule;
  return all;
}

/** For editors: the shared keys and every provider's; under `provider = "<p>"` only p's (if/then). */
function jsonOf(owned: OwnedSections): JsonSchemaOf {
  const base = shared;
  const common = base['properties'] as JsonSchemaOf;
  const all = withOwned(common, owned.embedders.values());
  const perProvider = [...owned.embedders].map(([provider, s]) => ({
    if: { properties: { provider: { const: provider } }, required: ['provider'] },
    then: { ...s.section.schema, properties: { ...common, ...propertiesOf(s) } },
  }));
  return { ...base, properties: all, ...(perProvider.length > 0 ? { allOf: perProvider } : {}) };
}

/**
 * `[db]`: the kernel's keys and the keys the store plugins own (`storeConfigs`, ADR 0239: `keyword_engine`,
 * `pool_size`, `storage_options`, `lock_lease`), each checked by its plugin's schema whichever engine is chosen (a
 * config may keep another engine's keys written).
 */
const dbKernelKeys: JsonSchemaOf = {
  type: 'object',
  properties: {
    // The store plugin (`createStore.for(engine)`): sqlite | postgres | lancedb | a plugin's. Absent: the store that
    // claims the url or path (postgres:// → postgres, a bucket → lancedb; ADR 0241), else sqlite.
    engine: { type: 'string' },
    path: { type: 'string', default: '.kbctx/kbctx.sqlite' },
    // PostgreSQL shared by replicas (ADR 0111); KBCTX_DATABASE_URL overrides it. Absent: the store at `path`.
    url: { type: 'string' },
  },
  additionalProperties: true,
};

/** The section as validated: the kernel's keys, and `extra`, the stores' keys as written (check-owned.ts). */
export interface RawDb {
  engine?: string | undefined;
  path: string;
  url?: string | undefined;
  readonly extra: Readonly<Table>;
}

export function dbSection(owned: OwnedSections): Part<RawDb> {
  return {
    parse: (v, path) => keep<RawDb>(dbKernelKeys, v, path),
    json: {
      ...dbKernelKeys,
      properties: withOwned(dbKernelKeys['properties'] as JsonSchemaOf, owned.stores.values()),
      additionalProperties: false,
    },
  };
}
