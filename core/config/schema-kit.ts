// A small declarative validator for the config tree (zod costs ~40 ms of CLI start-up; this costs
// nothing). Each schema checks a value at a key path and returns the typed value with defaults
// applied, or throws SchemaIssue with the path and a message such as "must be between 0 and 1".
// Each schema also describes itself as JSON Schema (`json()`), from which config/kbctx.schema.json is
// generated for editors (`npm run config:schema`; a test keeps the file current).

export class SchemaIssue extends Error {
  readonly path: readonly string[];
  constructor(path: readonly string[], message: string) {
    super(message);
    this.path = path;
  }
}

export type JsonSchemaOf = Record<string, unknown>;

export const UNKNOWN_KEY = 'is not a known key (check the spelling against config/kbctx.example.toml)';

export interface Schema<T> {
  parse(value: unknown, path: readonly string[]): T;
  /** Value used when the key is absent; undefined means the key is required. */
  readonly fallback?: () => T;
  /** The same rule as JSON Schema (draft 2020-12), for editors. */
  json(): JsonSchemaOf;
}

type Shape = Record<string, Schema<unknown>>;
type Out<S extends Shape> = { [K in keyof S]: S[K] extends Schema<infer T> ? T : never };

const describe = (v: unknown): string =>
  Array.isArray(v)
    ? 'an array'
    : v instanceof Date
      ? 'a date'
      : typeof v === 'object' && v !== null
        ? 'a table'
        : `${typeof v} ${JSON.stringify(v)}`;

const typed =
  <T>(check: (v: unknown) => v is T, expected: string) =>
  (v: unknown, path: readonly string[]): T => {
    if (!check(v)) throw new SchemaIssue(path, `must be ${expected}, got ${describe(v)}`);
    return v;
  };

export const str = (): Schema<string> => ({
  parse: typed((v): v is string => typeof v === 'string', 'a string'),
  json: () => ({ type: 'string' }),
});
export const bool = (): Schema<boolean> => ({
  parse: typed((v): v is boolean => typeof v === 'boolean', 'a boolean'),
  json: () => ({ type: 'boolean' }),
});
export const unknownValue = (): Schema<unknown> => ({ parse: (v) => v, json: () => ({}) });

export function num(range: { min?: number; max?: number; int?: boolean; gt?: number } = {}): Schema<number> {
  return {
    parse(v, path) {
      if (typeof v !== 'number' || !Number.isFinite(v))
        throw new SchemaIssue(path, `must be a number, got ${describe(v)}`);
      if (range.int && !Number.isInteger(v)) throw new SchemaIssue(path, `must be a whole number, got ${v}`);
      const { min, max, gt } = range;
      if (min !== undefined && max !== undefined && (v < min || v > max))
        throw new SchemaIssue(path, `must be between ${min} and ${max}`);
      if (min !== undefined && v < min) throw new SchemaIssue(path, `must be at least ${min}`);
      if (max !== undefined && v > max) throw new SchemaIssue(path, `must be at most ${max}`);
      if (gt !== undefined && v <= gt) throw new SchemaIssue(path, `must be greater than ${gt}`);
      return v;
    },
    json: () => ({
      type: range.int ? 'integer' : 'number',
      ...(range.min === undefined ? {} : { minimum: range.min }),
      ...(range.max === undefined ? {} : { maximum: range.max }),
      ...(range.gt === undefined ? {} : { exclusiveMinimum: range.gt }),
    }),
  };
}

/** `true`, `false` or one of the given words (e.g. `watch = "poll"`). */
export function boolOr<const T extends string>(words: readonly T[]): Schema<boolean | T> {
  return {
    parse(v, path) {
      if (typeof v === 'boolean' || (typeof v === 'string' && (words as readonly string[]).includes(v)))
        return v as boolean | T;
      throw new SchemaIssue(
        path,
        `must be true, false or ${words.map((w) => JSON.stringify(w)).join(', ')}, got ${describe(v)}`,
      );
    },
    json: () => ({ anyOf: [{ type: 'boolean' }, { enum: [...words] }] }),
  };
}

/** A duration as JSON Schema: a plugin's section uses it for a key `duration()` reads (from-json-schema.ts). */
export const DURATION_SCHEMA = Object.freeze({
  anyOf: [
    { type: 'number', minimum: 0 },
    { type: 'string', pattern: '^\\s*(\\d+(\\.\\d+)?)\\s*(ms|s|m|h|d)?\\s*$|^off$' },
  ],
});

/** A duration: seconds as a number, or text such as "90s", "5m", "1h", "1d"; "off" (or 0) is 0. */
export function duration(): Schema<number> {
  return {
    parse(v, path) {
      if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return v;
      const m = typeof v === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(v) : null;
      if (v === 'off') return 0;
      if (!m) throw new SchemaIssue(path, `must be a duration such as "30s", "5m", "1h" or "off", got ${describe(v)}`);
      const unit = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86_400 }[m[2] ?? 's'] ?? 1;
      return Number(m[1]) * unit;
    },
    json: () => structuredClone(DURATION_SCHEMA) as JsonSchemaOf,
  };
}

export const int = (range: { min?: number; max?: number } = {}): Schema<number> => num({ ...range, int: true });

export function oneOf<const T extends string>(values: readonly T[]): Schema<T> {
  return {
    parse(v, path) {
      if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) {
        throw new SchemaIssue(
          path,
          `must be one of ${values.map((x) => JSON.stringify(x)).join(', ')}, got ${describe(v)}`,
        );
      }
      return v as T;
    },
    json: () => ({ enum: [...values] }),
  };
}

export function array<T>(item: Schema<T>): Schema<T[]> {
  return {
    parse(v, path) {
      if (!Array.isArray(v)) throw new SchemaIssue(path, `must be an array, got ${describe(v)}`);
      return v.map((x, i) => item.parse(x, [...path, String(i)]));
    },
    json: () => ({ type: 'array', items: item.json() }),
  };
}

export function withDefault<T>(schema: Schema<T>, value: T | (() => T)): Schema<T> {
  const fallback = typeof value === 'function' ? (value as () => T) : () => structuredClone(value);
  return { parse: schema.parse, fallback, json: () => withJsonDefault(schema.json(), fallback()) };
}

export function optional<T>(schema: Schema<T>): Schema<T | undefined> {
  return { parse: schema.parse, fallback: () => undefined, json: schema.json };
}

/** A default worth showing in an editor: plain values (not the empty tables of whole sections). */
function withJsonDefault(json: JsonSchemaOf, value: unknown): JsonSchemaOf {
  const shown =
    value === null || typeof value !== 'object' || (Array.isArray(value) && value.every((v) => typeof v !== 'object'));
  return shown ? { ...json, default: value } : json;
}

const isTable = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);

/**
 * A table with known keys. Unknown keys are an error ("unknown key a.b") unless `rest` is 'keep',
 * in which case they are returned in `extra`.
 */
export function table<S extends Shape>(shape: S): Schema<Out<S>>;
export function table<S extends Shape>(shape: S, rest: 'keep'): Schema<Out<S> & { extra: Record<string, unknown> }>;
export function table<S extends Shape>(shape: S, rest?: 'keep'): Schema<Out<S> & { extra?: Record<string, unknown> }> {
  const schema: Schema<Out<S> & { extra?: Record<string, unknown> }> = {
    parse(v, path) {
      if (!isTable(v)) throw new SchemaIssue(path, `must be a table, got ${describe(v)}`);
      const out: Record<string, unknown> = {};
      const extra: Record<string, unknown> = {};
      for (const key of Object.keys(v)) {
        if (key in shape) continue;
        if (rest === 'keep') extra[key] = v[key];
        else throw new SchemaIssue([...path, key], UNKNOWN_KEY);
      }
      for (const [key, field] of Object.entries(shape)) {
        if (v[key] === undefined) {
          if (!field.fallback) throw new SchemaIssue([...path, key], 'is required');
          out[key] = field.fallback();
        } else {
          out[key] = field.parse(v[key], [...path, key]);
        }
      }
      if (rest === 'keep') out['extra'] = extra;
      return out as Out<S> & { extra?: Record<string, unknown> };
    },
    json: () => ({
      type: 'object',
      properties: Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, field.json()])),
      ...(Object.entries(shape).some(([, f]) => !f.fallback)
        ? {
            required: Object.entries(shape)
              .filter(([, f]) => !f.fallback)
              .map(([k]) => k),
          }
        : {}),
      additionalProperties: rest === 'keep',
    }),
  };
  return schema;
}

/** A table whose keys are names chosen by the user (connector instances, registries, …). */
export function named<T>(entry: Schema<T>): Schema<Record<string, T>> {
  return withDefault(
    {
      parse(v, path) {
        if (!isTable(v)) throw new SchemaIssue(path, `must be a table, got ${describe(v)}`);
        return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, entry.parse(x, [...path, k])]));
      },
      json: () => ({ type: 'object', additionalProperties: entry.json() }),
    },
    () => ({}),
  );
}

/** A section whose every key may be absent: missing section = all defaults. */
export function section<T>(schema: Schema<T>): Schema<T> {
  return withDefault(schema, () => schema.parse({}, []));
}
