// The TOML schema of SPEC §2: the kernel's keys, their types, ranges and defaults (defaults live here only), with the
// sections and keys plugins own added from their schemas. Context Harness's ctx.toml keys load unchanged.
import {
  SchemaIssue,
  array,
  bool,
  duration,
  int,
  named,
  num,
  oneOf,
  optional,
  section,
  str,
  table,
  unknownValue,
  withDefault,
  type Schema,
} from './schema-kit.ts';
import type { OwnedSections } from './plugin-sections.ts';
import { dbSection, embeddingSection, type RawDb, type RawEmbedding } from './owned-keys.ts';

/** `[retrieval] hybrid_alpha` when neither the config nor the embedder (Embedder.hybridAlpha) sets one. */
export const DEFAULT_HYBRID_ALPHA = 0.6;
const seconds = (fallback: number) => withDefault(num({ gt: 0 }), fallback);

/** A `plugins` entry: a name or path, or (in a config module, ADR 0128) a plugin object, checked when plugins load. */
function pluginEntry(): Schema<string | object> {
  return {
    parse(v, path) {
      if (typeof v === 'string' || (typeof v === 'object' && v !== null && !Array.isArray(v))) return v;
      throw new SchemaIssue(
        path,
        `must be a plugin name, a path or (in kbctx.config.mjs) a plugin object, got ` +
          `${Array.isArray(v) ? 'an array' : `${typeof v} ${JSON.stringify(v)}`}`,
      );
    },
    // config/kbctx.schema.json describes the TOML file, whose entries are strings; objects come only from a module.
    json: () => ({ type: 'string' }),
  };
}

/**
 * The kernel's sections; the ones plugins own (connector types, `[server]`, the providers' `[embedding]` keys, the
 * stores' `[db]` keys) are added by `configSchemaWith`.
 */
const kernelShape = {
  chunking: section(
    table({
      max_tokens: withDefault(int({ min: 16 }), 700),
      overlap_tokens: withDefault(int({ min: 0 }), 80),
    }),
  ),
  retrieval: section(
    table({
      final_limit: withDefault(int({ min: 1 }), 12),
      max_limit: withDefault(int({ min: 1 }), 100),
      // Unset: the embedder's own weight (Embedder.hybridAlpha), else DEFAULT_HYBRID_ALPHA (ADR 0150).
      hybrid_alpha: optional(num({ min: 0, max: 1 })),
      candidate_k_keyword: withDefault(int({ min: 1 }), 80),
      candidate_k_vector: withDefault(int({ min: 1 }), 80),
      fusion: withDefault(oneOf(['weighted', 'rrf']), 'weighted'),
      cache_size: withDefault(int({ min: 0 }), 256),
      // Context Harness keys: accepted; only their default behaviour exists.
      group_by: optional(oneOf(['document'])),
      doc_agg: optional(oneOf(['max'])),
      max_chunks_per_doc: optional(int({ min: 1 })),
    }),
  ),
  sync: section(table({ interval: withDefault(duration(), 900) })),
  registries: named(
    table({
      url: optional(str()),
      branch: optional(str()),
      path: str(),
      readonly: withDefault(bool(), false),
      auto_update: withDefault(bool(), false),
      priority: optional(int()),
    }),
  ),
  extensions: section(table({ modules: withDefault(array(str()), []), timeout: seconds(30) })),
  // The plugin host (core/): which plugins load, and each one's `[plugin.<name>]` options (checked by its own schema).
  plugins: withDefault(array(pluginEntry()), ['bundled']),
  plugin: optional(unknownValue()),
  // Context Harness sections with no kbctx meaning: accepted so ctx.toml files load unchanged.
  vector_index: optional(unknownValue()),
  models: optional(unknownValue()),
};

type Table = Record<string, unknown>;
/** The validated tree: the kernel's sections typed; the plugins' as their schemas made them. */
export type RawConfig = {
  [K in keyof typeof kernelShape]: (typeof kernelShape)[K] extends Schema<infer T> ? T : never;
} & {
  db: RawDb;
  embedding: RawEmbedding;
  tools: Record<string, Record<string, Table>>;
  agents: Record<string, Record<string, Table>>;
  connectors: Record<string, Record<string, Table>> & { extra: Table };
} & Record<string, unknown>;

/**
 * The whole config schema: the kernel's sections plus each owned section (`[server]`), connector type
 * (`[connectors.<type>.<name>]`) and embedding provider's keys; other `[connectors.<type>]` keys are kept for plugins
 * loaded later.
 */
export function configSchemaWith(owned: OwnedSections): Schema<RawConfig> {
  const top = [...owned.sections].filter(([name]) => !name.includes('.'));
  const sections = Object.fromEntries(top.map(([name, s]) => [name, section(s.validator)]));
  const types = Object.fromEntries([...owned.connectors].map(([type, s]) => [type, named(s.validator)]));
  // `[tools.<form>]`, `[agents.<form>]`: a form's section is its plugin's (`tools.script`: the Lua bridge's).
  const under = (parent: string) =>
    Object.fromEntries(
      [...owned.sections]
        .filter(([name]) => name.startsWith(`${parent}.`))
        .map(([name, s]) => [name.slice(parent.length + 1), section(s.validator)]),
    );
  // [db] and [embedding] keep their places around [chunking] (config/kbctx.schema.json)
  const { chunking, ...rest } = kernelShape;
  return table({
    db: section(dbSection(owned)),
    chunking,
    embedding: section(embeddingSection(owned)),
    ...rest,
    ...sections,
    tools: section(table(under('tools'))),
    agents: section(table(under('agents'))),
    connectors: section(table(types, 'keep')),
  }) as unknown as Schema<RawConfig>;
}
