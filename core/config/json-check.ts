// The config's one validator (ADR 0248): every section, the kernel's and the plugins', is a JSON Schema, checked here
// for the subset config sections use (type, properties, required, additionalProperties, default, enum, items,
// minimum, maximum, exclusiveMinimum, DURATION_SCHEMA, `anyOf` of a boolean and words), in the config loader's wording
// ("must be between 0 and 1") and with defaults applied; a schema with any other keyword goes to ajv (ajv-check.ts,
// imported on first use: ajv costs ~50 ms of start-up, ADR 0130). What the checker returns is what the file means:
// defaults filled in, durations in seconds, other keys kept unless `additionalProperties: false`.

export class SchemaIssue extends Error {
  readonly path: readonly string[];
  /** The plugin whose section found it (ADR 0250); absent: the kernel's keys. */
  readonly plugin: string | undefined;
  constructor(path: readonly string[], message: string, plugin?: string) {
    super(message);
    this.path = path;
    this.plugin = plugin;
  }
}

/** The config error's text: `<file>: <key path> <message>`, and the plugin whose section checked it. */
export const issueText = (label: string, issue: SchemaIssue): string =>
  `${label}: ${issue.path.join('.')} ${issue.message}` +
  (issue.plugin === undefined ? '' : ` (checked by plugin '${issue.plugin}')`);

export type JsonSchemaOf = Record<string, unknown>;

export const UNKNOWN_KEY = 'is not a known key (check the spelling against config/kbctx.example.toml)';

/** A duration as JSON Schema: seconds as a number, or text such as "90s", "5m", "1h", "1d"; "off" (or 0) is 0. */
export const DURATION_SCHEMA = Object.freeze({
  anyOf: [
    { type: 'number', minimum: 0 },
    { type: 'string', pattern: '^\\s*(\\d+(\\.\\d+)?)\\s*(ms|s|m|h|d)?\\s*$|^off$' },
  ],
});
const DURATION_JSON = JSON.stringify(DURATION_SCHEMA.anyOf);

const KNOWN = new Set([
  ...['type', 'properties', 'required', 'additionalProperties', 'default', 'enum', 'items', 'anyOf'],
  ...['minimum', 'maximum', 'exclusiveMinimum', 'description', 'title', 'examples', '$comment'],
]);
const NOTES = new Set(['default', 'description', 'title', 'examples', '$comment']);
const isJson = (v: unknown): v is JsonSchemaOf => typeof v === 'object' && v !== null && !Array.isArray(v);
const isTable = (v: unknown): v is Record<string, unknown> => isJson(v) && !(v instanceof Date);
const words = (v: unknown): v is string[] => Array.isArray(v) && v.every((w) => typeof w === 'string');

/** Whether `schema` keeps to the subset this file checks (else ajv checks it). */
export function inSubset(schema: JsonSchemaOf): boolean {
  if (Object.keys(schema).some((k) => !KNOWN.has(k))) return false;
  if (schema['enum'] !== undefined) return words(schema['enum']);
  if (schema['anyOf'] !== undefined) return JSON.stringify(schema['anyOf']) === DURATION_JSON || !!boolOr(schema);
  const { items, properties: props, additionalProperties: rest } = schema;
  if (items !== undefined && !(isJson(items) && inSubset(items))) return false;
  if (props !== undefined && !(isJson(props) && Object.values(props).every((p) => isJson(p) && inSubset(p))))
    return false;
  if (isJson(rest)) return props === undefined && inSubset(rest);
  const type = schema['type'];
  if (type === undefined) return Object.keys(schema).every((k) => NOTES.has(k));
  return ['string', 'boolean', 'number', 'integer', 'array', 'object'].includes(type as string);
}

/** `{ anyOf: [{ type: 'boolean' }, { enum: [...] }] }`: `true`, `false` or a word (`watch = "poll"`). */
function boolOr(schema: JsonSchemaOf): string[] | undefined {
  const [b, e, more] = (schema['anyOf'] ?? []) as unknown[];
  const ok = isJson(b) && JSON.stringify(b) === '{"type":"boolean"}' && isJson(e) && Object.keys(e).length === 1;
  return ok && more === undefined && words(e['enum']) ? e['enum'] : undefined;
}

const describe = (v: unknown): string =>
  Array.isArray(v)
    ? 'an array'
    : v instanceof Date
      ? 'a date'
      : typeof v === 'object' && v !== null
        ? 'a table'
        : `${typeof v} ${JSON.stringify(v)}`;

const quoted = (list: readonly string[]): string => list.map((w) => JSON.stringify(w)).join(', ');

/** `value` at `path` checked against `schema` (in the subset): what it means, or a SchemaIssue naming the key path. */
export function check(schema: JsonSchemaOf, v: unknown, path: readonly string[]): unknown {
  const fail = (message: string): never => {
    throw new SchemaIssue(path, message);
  };
  const expect = (ok: boolean, what: string): void => void (ok || fail(`must be ${what}, got ${describe(v)}`));
  const oneOf = schema['enum'];
  if (words(oneOf))
    return typeof v === 'string' && oneOf.includes(v) ? v : fail(`must be one of ${quoted(oneOf)}, got ${describe(v)}`);
  if (JSON.stringify(schema['anyOf']) === DURATION_JSON) return duration(v, fail);
  const either = boolOr(schema);
  if (either) {
    if (typeof v === 'boolean' || (typeof v === 'string' && either.includes(v))) return v;
    return fail(`must be true, false or ${quoted(either)}, got ${describe(v)}`);
  }
  switch (schema['type']) {
    case 'string':
      expect(typeof v === 'string', 'a string');
      return v;
    case 'boolean':
      expect(typeof v === 'boolean', 'a boolean');
      return v;
    case 'number':
    case 'integer':
      return number(schema, v, fail);
    case 'array':
      expect(Array.isArray(v), 'an array');
      return isJson(schema['items'])
        ? (v as unknown[]).map((x, i) => check(schema['items'] as JsonSchemaOf, x, [...path, String(i)]))
        : v;
    case 'object':
      expect(isTable(v), 'a table');
      return object(schema, v as Record<string, unknown>, path);
    default:
      return v;
  }
}

function number(schema: JsonSchemaOf, v: unknown, fail: (message: string) => never): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) return fail(`must be a number, got ${describe(v)}`);
  if (schema['type'] === 'integer' && !Number.isInteger(v)) fail(`must be a whole number, got ${v}`);
  const bound = (k: string): number | undefined => (typeof schema[k] === 'number' ? (schema[k] as number) : undefined);
  const [min, max, gt] = [bound('minimum'), bound('maximum'), bound('exclusiveMinimum')];
  if (min !== undefined && max !== undefined && (v < min || v > max)) fail(`must be between ${min} and ${max}`);
  if (min !== undefined && v < min) fail(`must be at least ${min}`);
  if (max !== undefined && v > max) fail(`must be at most ${max}`);
  if (gt !== undefined && v <= gt) fail(`must be greater than ${gt}`);
  return v;
}

function duration(v: unknown, fail: (message: string) => never): number {
  if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return v;
  if (v === 'off') return 0;
  const m = typeof v === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(v) : null;
  if (!m) return fail(`must be a duration such as "30s", "5m", "1h" or "off", got ${describe(v)}`);
  return Number(m[1]) * ({ ms: 0.001, s: 1, m: 60, h: 3600, d: 86_400 }[m[2] ?? 's'] ?? 1);
}

/**
 * A table: unknown keys first (an error with `additionalProperties: false`, else kept in place), then each property
 * (absent: its `default`, "is required", or undefined); a table of user-named tables when only
 * `additionalProperties` is a schema (`[connectors.git.<name>]`).
 */
function object(schema: JsonSchemaOf, v: Record<string, unknown>, path: readonly string[]): Record<string, unknown> {
  const { properties, additionalProperties: rest } = schema as {
    properties?: Record<string, JsonSchemaOf>;
  } & JsonSchemaOf;
  if (properties === undefined && isJson(rest))
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, check(rest, x, [...path, k])]));
  const shape = properties ?? {};
  const required = new Set((schema['required'] ?? []) as string[]);
  const extra: Record<string, unknown> = {};
  for (const key of Object.keys(v)) {
    if (key in shape) continue;
    if (rest === false) throw new SchemaIssue([...path, key], UNKNOWN_KEY);
    extra[key] = v[key];
  }
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(shape)) {
    if (v[key] !== undefined) out[key] = check(field, v[key], [...path, key]);
    else if (field['default'] !== undefined) out[key] = structuredClone(field['default']);
    else if (required.has(key)) throw new SchemaIssue([...path, key], 'is required');
    else out[key] = undefined;
  }
  return { ...extra, ...out };
}
