// The kernel's tables whose other keys plugins own, Context Harness's keys staying where its ctx.toml writes them:
// `[embedding]` (ADR 0178: the keys every provider shares; the rest the provider's plugin's, `embedderConfigs`, a
// bad value naming the provider and the plugin) and `[db]` (ADR 0239: the keys that choose the store; the rest the
// stores', `storeConfigs`). Each owned key is checked by its plugin's schema at `<section>.<key>`.
import type { OwnedSection, OwnedSections } from './plugin-sections.ts';
import {
  int,
  optional,
  SchemaIssue,
  str,
  table,
  UNKNOWN_KEY,
  withDefault,
  type JsonSchemaOf,
  type Schema,
} from './schema-kit.ts';

const shared = table(
  {
    // disabled | openai | ollama | local | a plugin's provider (transformers); other keys are that provider's.
    provider: withDefault(str(), 'disabled'),
    model: optional(str()),
    dims: optional(int({ min: 1 })),
    batch_size: withDefault(int({ min: 1 }), 64),
    concurrency: withDefault(int({ min: 1 }), 2),
  },
  'keep',
);

type Shared = ReturnType<typeof shared.parse>;
/**
 * The section as validated: the shared keys, and `extra`, the provider's own (checked by its section when it has one).
 */
export type RawEmbedding = Shared & { readonly owner?: OwnedSection | undefined };

const propertiesOf = (s: OwnedSection): JsonSchemaOf => (s.section.schema['properties'] ?? {}) as JsonSchemaOf;

export function embeddingSection(owned: OwnedSections): Schema<RawEmbedding> {
  return {
    parse(v, path) {
      const raw = shared.parse(v, path);
      const owner = owned.embedders.get(raw.provider);
      if (owner) return { ...raw, owner, extra: ownKeys(owner, raw.provider, raw.extra, path) };
      // `disabled` reads nothing: the keys of any bundled provider may stay written (switching back is one line).
      if (raw.provider === 'disabled') {
        const known = new Set([...owned.embedders.values()].flatMap((s) => Object.keys(propertiesOf(s))));
        const unknown = Object.keys(raw.extra).find((k) => !known.has(k));
        if (unknown !== undefined) throw new SchemaIssue([...path, unknown], UNKNOWN_KEY);
      }
      return raw;
    },
    json: () => jsonOf(owned),
  };
}

/**
 * The provider's keys through its plugin's schema: an unknown key as the loader words it, a bad value naming the
 * plugin.
 */
function ownKeys(
  owner: OwnedSection,
  provider: string,
  extra: Record<string, unknown>,
  path: readonly string[],
): Record<string, unknown> {
  try {
    // Keys left unwritten stay absent (not `undefined`): the plugin sees the table as written, defaults applied.
    return Object.fromEntries(Object.entries(owner.validator.parse(extra, path)).filter(([, v]) => v !== undefined));
  } catch (error) {
    if (!(error instanceof SchemaIssue) || error.message.startsWith('is not a known key')) throw error;
    throw new SchemaIssue(error.path, `${error.message} (an option of provider "${provider}", plugin ${owner.plugin})`);
  }
}

/** For editors: the kernel's properties, then each owner's it does not have. */
function withOwned(kernel: JsonSchemaOf, owners: Iterable<OwnedSection>): JsonSchemaOf {
  const all = { ...kernel };
  for (const s of owners) for (const [k, rule] of Object.entries(propertiesOf(s))) all[k] ??= rule;
  return all;
}

/** For editors: the shared keys and every provider's; under `provider = "<p>"` only p's (if/then). */
function jsonOf(owned: OwnedSections): JsonSchemaOf {
  const base = shared.json();
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
const dbKernelKeys = table(
  {
    // The store plugin (`createStore.for(engine)`): sqlite | postgres | lancedb | a plugin's. Absent: the store that
    // claims the url or path (postgres:// → postgres, a bucket → lancedb; ADR 0241), else sqlite.
    engine: optional(str()),
    path: withDefault(str(), '.kbctx/kbctx.sqlite'),
    // PostgreSQL shared by replicas (ADR 0111); KBCTX_DATABASE_URL overrides it. Absent: the store at `path`.
    url: optional(str()),
  },
  'keep',
);

/**
 * The section as validated: the kernel's keys, each store section's table (defaults applied), and the keys no bundled
 * store declares (a configured store plugin's, checked when it is applied: ADR 0241).
 */
export type RawDb = Omit<ReturnType<typeof dbKernelKeys.parse>, 'extra'> & {
  readonly stores: readonly { readonly owner: OwnedSection; readonly table: Record<string, unknown> }[];
  readonly unclaimed: Readonly<Record<string, unknown>>;
};

export function dbSection(owned: OwnedSections): Schema<RawDb> {
  return {
    parse(v, path) {
      const { extra, ...kernel } = dbKernelKeys.parse(v, path);
      const stores = [...owned.stores.values()].map((owner) => {
        const keys = new Set(Object.keys(propertiesOf(owner)));
        const own = Object.fromEntries(Object.entries(extra).filter(([k]) => keys.has(k)));
        return { owner, table: owner.validator.parse(own, path) };
      });
      const unclaimed = Object.fromEntries(
        Object.entries(extra).filter(([k]) => !stores.some((s) => k in propertiesOf(s.owner))),
      );
      return { ...kernel, stores, unclaimed };
    },
    json: () => {
      const base = dbKernelKeys.json();
      const properties = withOwned(base['properties'] as JsonSchemaOf, owned.stores.values());
      return { ...base, properties, additionalProperties: false };
    },
  };
}
