// The TOML schema of SPEC §2: the kernel's keys, their types, ranges and defaults (defaults live here only), as JSON
// Schema (checked by json-check.ts, ADR 0248), with the sections and keys plugins own added from their schemas.
// Context Harness's ctx.toml keys load unchanged.
import { check, SchemaIssue, UNKNOWN_KEY, type JsonSchemaOf } from './json-check.ts';
import type { OwnedSection, OwnedSections } from './plugin-sections.ts';
import { dbSection, embeddingSection, type RawDb, type RawEmbedding } from './owned-keys.ts';
import type { Fusion } from './types.ts';

/** `[retrieval] hybrid_alpha` when neither the config nor the embedder (Embedder.hybridAlpha) sets one. */
export const DEFAULT_HYBRID_ALPHA = 0.6;

const STR = { type: 'string' };
const int = (minimum?: number, fallback?: number): JsonSchemaOf => ({
  type: 'integer',
  ...(minimum === undefined ? {} : { minimum }),
  ...(fallback === undefined ? {} : { default: fallback }),
});
const flag = { type: 'boolean', default: false };
const table = (properties: Record<string, unknown>, required?: string[]): JsonSchemaOf => ({
  type: 'object',
  properties,
  ...(required ? { required } : {}),
  additionalProperties: false,
});

/**
 * The kernel's sections; the ones plugins own (connector types, `[server]`, the providers' `[embedding]` keys, the
 * stores' `[db]` keys) are added by `configSchemaWith`.
 */
const kernel: Record<string, JsonSchemaOf> = {
  chunking: table({ max_tokens: int(16, 700), overlap_tokens: int(0, 80) }),
  retrieval: table({
    final_limit: int(1, 12),
    max_limit: int(1, 100),
    // Unset: the embedder's own weight (Embedder.hybridAlpha), else DEFAULT_HYBRID_ALPHA (ADR 0150).
    hybrid_alpha: { type: 'number', minimum: 0, maximum: 1 },
    candidate_k_keyword: int(1, 80),
    candidate_k_vector: int(1, 80),
    fusion: { enum: ['weighted', 'rrf'], default: 'weighted' },
    cache_size: int(0, 256),
    // Context Harness keys: accepted; only their default behaviour exists.
    group_by: { enum: ['document'] },
    doc_agg: { enum: ['max'] },
    max_chunks_per_doc: int(1),
  }),
  registries: {
    type: 'object',
    additionalProperties: table(
      { url: STR, branch: STR, path: STR, readonly: flag, auto_update: flag, priority: int() },
      ['path'],
    ),
  },
  // The plugin host (core/): which plugins load, and each one's `[plugin.<name>]` options (checked by its own schema).
  // config/kbctx.schema.json describes the TOML file, whose entries are strings; objects come only from a module.
  plugins: { type: 'array', items: STR, default: ['bundled'] },
  plugin: {},
  // Context Harness sections with no kbctx meaning: accepted so ctx.toml files load unchanged.
  vector_index: {},
};

type Table = Record<string, unknown>;
/** The validated tree: the kernel's sections typed; the plugins' as their schemas made them. */
export interface RawConfig {
  [section: string]: unknown;
  db: RawDb;
  embedding: RawEmbedding;
  chunking: { max_tokens: number; overlap_tokens: number };
  retrieval: {
    final_limit: number;
    max_limit: number;
    hybrid_alpha?: number;
    candidate_k_keyword: number;
    candidate_k_vector: number;
    fusion: Fusion;
    cache_size: number;
  };
  registries: Record<
    string,
    { url?: string; branch?: string; path: string; readonly: boolean; auto_update: boolean; priority?: number }
  >;
  plugins: (string | object)[];
  plugin?: unknown;
  tools: Record<string, unknown>;
  agents: Record<string, unknown>;
  connectors: Record<string, unknown> & { extra: Table };
  /** Top-level tables no part knows, as written (load-config.ts: a configured plugin's, else unknown). */
  extra: Table;
}

/** A key of the tree: how it is checked (an absent table: all its defaults) and its JSON Schema for editors. */
export interface Part<T = unknown> {
  parse(v: unknown, path: readonly string[]): T;
  readonly json: JsonSchemaOf;
}

/** A `plugins` entry: a name or path, or (in a config module, ADR 0128) a plugin object, checked when plugins load. */
function plugins(v: unknown, path: readonly string[]): unknown {
  if (!Array.isArray(v)) return check(kernel['plugins']!, v, path);
  for (const [i, entry] of v.entries()) {
    if (typeof entry === 'string' || (typeof entry === 'object' && entry !== null && !Array.isArray(entry))) continue;
    throw new SchemaIssue(
      [...path, String(i)],
      `must be a plugin name, a path or (in kbctx.config.mjs) a plugin object, got ` +
        `${Array.isArray(entry) ? 'an array' : `${typeof entry} ${JSON.stringify(entry)}`}`,
    );
  }
  return v;
}

/** A table of the given parts (absent: `{}`); `keep`: other keys are returned in `extra` instead of refused. */
function tableOf(parts: Record<string, Part>, keep = false): Part {
  return {
    parse(v, path) {
      const t = check({ type: 'object' }, v ?? {}, path) as Table;
      const extra = Object.fromEntries(Object.entries(t).filter(([k]) => !(k in parts)));
      const unknown = Object.keys(extra)[0];
      if (!keep && unknown !== undefined) throw new SchemaIssue([...path, unknown], UNKNOWN_KEY);
      const out = Object.fromEntries(Object.entries(parts).map(([k, p]) => [k, p.parse(t[k], [...path, k])]));
      return keep ? { ...out, extra } : out;
    },
    json: {
      type: 'object',
      properties: Object.fromEntries(Object.entries(parts).map(([k, p]) => [k, p.json])),
      additionalProperties: keep,
    },
  };
}

/** An owned section: kept as written, for check-owned.ts (ADR 0250). */
const ownedPart = (s: OwnedSection): Part => ({ parse: (v) => v, json: s.json });
/** A kernel key: an absent table is all its defaults, an absent list its default. */
const kernelPart = (json: JsonSchemaOf): Part => ({
  parse: (v, path) =>
    json['type'] === 'object' ? check(json, v ?? {}, path) : check(json, v ?? json['default'], path),
  json,
});

/**
 * The whole config schema: the kernel's sections checked, plus each owned section (`[server]`), connector type
 * (`[connectors.<type>.<name>]`), store's and embedding provider's keys kept as written for check-owned.ts (their
 * schemas are in `json`); other `[connectors.<type>]` keys are kept for plugins loaded later.
 */
export function configSchemaWith(owned: OwnedSections): { parse(tree: unknown): RawConfig; json: JsonSchemaOf } {
  const top = [...owned.sections].filter(([name]) => !name.includes('.'));
  // `[tools.<form>]`, `[agents.<form>]`: a form's section is its plugin's (`tools.script`: the Lua bridge's).
  const under = (parent: string): Part =>
    tableOf(
      Object.fromEntries(
        [...owned.sections]
          .filter(([name]) => name.startsWith(`${parent}.`))
          .map(([name, s]) => [name.slice(parent.length + 1), ownedPart(s)]),
      ),
    );
  // `[connectors.<type>.<name>]`: tables of user-named tables, each checked by the type's section (check-owned.ts).
  const named = (s: OwnedSection): Part => ({
    parse: (v) => v,
    json: { type: 'object', additionalProperties: s.json },
  });
  // [db] and [embedding] keep their places around [chunking] (config/kbctx.schema.json)
  const { chunking, ...rest } = Object.fromEntries(Object.entries(kernel).map(([k, json]) => [k, kernelPart(json)]));
  const parts: Record<string, Part> = {
    db: dbSection(owned),
    chunking: chunking!,
    embedding: embeddingSection(owned),
    ...rest,
    plugins: { parse: (v, path) => plugins(v ?? ['bundled'], path), json: kernel['plugins']! },
    ...Object.fromEntries(top.map(([name, s]) => [name, ownedPart(s)])),
    tools: under('tools'),
    agents: under('agents'),
    connectors: tableOf(Object.fromEntries([...owned.connectors].map(([type, s]) => [type, named(s)])), true),
  };
  // Other top-level tables are kept in `extra`: a configured plugin's sections (ADR 0250), else unknown keys.
  return { parse: (tree) => tableOf(parts, true).parse(tree, []) as RawConfig, json: tableOf(parts).json };
}
