// A plugin's JSON Schema as a schema-kit validator (no ajv: ADR 0130, 0164), for the subset config
// sections use: type, properties, required, additionalProperties, default, enum, items, minimum,
// maximum, exclusiveMinimum, `anyOf` of a boolean and words, and DURATION_SCHEMA. Messages are the config loader's
// ("connectors.git.x.url is required"). Anything else returns null: the caller uses ajv.
import {
  array,
  bool,
  boolOr,
  duration,
  DURATION_SCHEMA,
  named,
  num,
  oneOf,
  optional,
  str,
  table,
  unknownValue,
  withDefault,
  type Schema,
} from './schema-kit.ts';

type Json = Record<string, unknown>;

const KNOWN = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'default',
  'enum',
  'items',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'anyOf',
  'description',
  'title',
  'examples',
  '$comment',
]);
const DURATION_JSON = JSON.stringify(DURATION_SCHEMA.anyOf);
const isJson = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The validator of `json`, or null when it uses a keyword outside the subset. */
export function fromJsonSchema(json: Json): Schema<unknown> | null {
  if (Object.keys(json).some((k) => !KNOWN.has(k))) return null;
  const words = json['enum'];
  if (Array.isArray(words)) return words.every((w) => typeof w === 'string') ? oneOf(words as string[]) : null;
  if (json['anyOf'] !== undefined)
    return JSON.stringify(json['anyOf']) === DURATION_JSON ? duration() : boolOrWords(json['anyOf']);
  switch (json['type']) {
    case 'string':
      return str();
    case 'boolean':
      return bool();
    case 'number':
    case 'integer':
      return numberOf(json);
    case 'array': {
      const items = isJson(json['items']) ? fromJsonSchema(json['items']) : null;
      return items && array(items);
    }
    case 'object':
      return objectOf(json);
    case undefined:
      return Object.keys(json).length === 0 ? unknownValue() : null;
    default:
      return null;
  }
}

function numberOf(json: Json): Schema<number> | null {
  const bound = (k: string): number | undefined => (typeof json[k] === 'number' ? (json[k] as number) : undefined);
  return num({
    min: bound('minimum'),
    max: bound('maximum'),
    gt: bound('exclusiveMinimum'),
    int: json['type'] === 'integer',
  });
}

/** `{ anyOf: [{ type: 'boolean' }, { enum: [...] }] }`: `true`, `false` or a word (`watch = "poll"`). */
function boolOrWords(anyOf: unknown): Schema<unknown> | null {
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return null;
  const [b, e] = anyOf as unknown[];
  if (!isJson(b) || b['type'] !== 'boolean' || Object.keys(b).length !== 1 || !isJson(e)) return null;
  const words = e['enum'];
  return Array.isArray(words) && words.every((w) => typeof w === 'string') && Object.keys(e).length === 1
    ? boolOr(words as string[])
    : null;
}

function objectOf(json: Json): Schema<unknown> | null {
  const rest = json['additionalProperties'];
  const properties = json['properties'];
  // A table of user-named tables (`[connectors.git.<name>]`).
  if (properties === undefined && isJson(rest)) {
    const entry = fromJsonSchema(rest);
    return entry && named(entry);
  }
  if (properties !== undefined && !isJson(properties)) return null;
  if (rest !== undefined && typeof rest !== 'boolean') return null;
  const required = new Set(Array.isArray(json['required']) ? (json['required'] as string[]) : []);
  const shape: Record<string, Schema<unknown>> = {};
  for (const [key, value] of Object.entries(properties ?? {})) {
    if (!isJson(value)) return null;
    const { default: fallback, ...rule } = value;
    const field = fromJsonSchema(rule);
    if (!field) return null;
    shape[key] = fallback !== undefined ? withDefault(field, fallback) : required.has(key) ? field : optional(field);
  }
  if (rest === false) return table(shape);
  // As in JSON Schema, other keys are allowed unless `additionalProperties: false`; they stay in place.
  const open = table(shape, 'keep');
  return {
    parse: (v, path) => {
      const { extra, ...known } = open.parse(v, path);
      return { ...extra, ...known };
    },
    json: open.json,
  };
}
