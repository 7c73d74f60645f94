// `[embedding]` (ADR 0178): the keys every provider shares are the kernel's; the rest belong to the
// provider's plugin (`embedderConfigs`), checked by its schema at `embedding.<key>`, a bad value naming
// the provider and the plugin. Context Harness's keys stay where its ctx.toml writes them.
import type { OwnedSection, OwnedSections } from './plugin-sections.ts';
import { int, optional, SchemaIssue, str, table, withDefault, type JsonSchemaOf, type Schema } from './schema-kit.ts';

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

const UNKNOWN = 'is not a known key (check the spelling against config/kbctx.example.toml)';
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
        if (unknown !== undefined) throw new SchemaIssue([...path, unknown], UNKNOWN);
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

/** For editors: the shared keys and every provider's; under `provider = "<p>"` only p's (if/then). */
function jsonOf(owned: OwnedSections): JsonSchemaOf {
  const base = shared.json();
  const common = base['properties'] as JsonSchemaOf;
  const all: JsonSchemaOf = { ...common };
  for (const s of owned.embedders.values()) for (const [k, rule] of Object.entries(propertiesOf(s))) all[k] ??= rule;
  const perProvider = [...owned.embedders].map(([provider, s]) => ({
    if: { properties: { provider: { const: provider } }, required: ['provider'] },
    then: { ...s.section.schema, properties: { ...common, ...propertiesOf(s) } },
  }));
  return { ...base, properties: all, ...(perProvider.length > 0 ? { allOf: perProvider } : {}) };
}
