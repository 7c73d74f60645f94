// The search tool's `filters` object (and its top-level twins source, since, until) read into a store SourceFilter
// (ADR 0213); loaded only when a search has a filter (start-up). Shapes are checked here, not by ajv, so `kbctx search`
// loads no validator: a list field takes a string or a list of strings; `meta` an object of key → value or list of
// values. Every fault is a bad_request naming the parameter (`filters.path`, `filters.meta.team`).
import { badRequest, type SourceFilter } from '../../core/api/plugin.ts';
import { compilePaths, languageNames } from '../../core/api/algorithms.ts';
import { FILTER_FIELDS } from './search-params.ts';
import { rejectUnknownParams } from './unknown-params.ts';

const MAX_VALUES = 64;
const MAX_VALUE_CHARS = 512;
const MAX_META_KEYS = 16;
const LIST = 'a string or a list of strings';

/** A SourceFilter as read: `source` always a list. */
export type ReadFilter = SourceFilter & { source?: readonly string[] | undefined };

export interface FilterInput {
  /** The `filters` object as given (undefined when absent). */
  filters: unknown;
  /** The top-level twins. */
  source: unknown;
  since: unknown;
  until: unknown;
}

/**
 * Reads the filters; `toInstant` resolves since/until (dates, durations) given the parameter name.
 * Undefined when nothing restricts.
 */
export function readFilter(
  input: FilterInput,
  toInstant: (value: string, parameter: string) => string,
): ReadFilter | undefined {
  const f = readObject(input.filters, 'filters');
  rejectUnknownParams(f, Object.keys(FILTER_FIELDS), 'filters.');
  const topSource = input.source === undefined ? undefined : list(input.source, 'source');
  const source = agree('source', topSource, list(f['source'], 'filters.source'));
  const time = (name: 'since' | 'until'): string | undefined => {
    const top = text(input[name], name);
    const nested = text(f[name], `filters.${name}`);
    const value = agree(name, top, nested);
    return value === undefined ? undefined : toInstant(value, top === undefined ? `filters.${name}` : name);
  };
  const filter: ReadFilter = {
    ...(source !== undefined ? { source } : {}),
    ...optional('since', time('since')),
    ...optional('until', time('until')),
    ...optional('path', paths(f['path'])),
    ...optional('lang', langs(f['lang'])),
    ...optional('type', list(f['type'], 'filters.type')),
    ...optional('tags', list(f['tags'], 'filters.tags')),
    ...optional('tagsAll', list(f['tags_all'], 'filters.tags_all')),
    ...optional('meta', meta(f['meta'])),
  };
  return Object.keys(filter).length === 0 ? undefined : filter;
}

const optional = <K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> =>
  value === undefined ? {} : ({ [key]: value } as Record<K, V>);

function readObject(value: unknown, parameter: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw badRequest(`parameter '${parameter}' must be an object, got ${describe(value)}`, { parameter });
  return value as Record<string, unknown>;
}

function text(value: unknown, parameter: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string')
    throw badRequest(`parameter '${parameter}' must be a string, got ${describe(value)}`, { parameter });
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** A string or a list of non-empty strings, trimmed, duplicates dropped; undefined when absent. */
function list(value: unknown, parameter: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const items = Array.isArray(value) ? (value as unknown[]) : [value];
  if (items.length === 0) throw badRequest(`parameter '${parameter}' must not be an empty list`, { parameter });
  if (items.length > MAX_VALUES)
    throw badRequest(`parameter '${parameter}' has ${items.length} values; the limit is ${MAX_VALUES}`, { parameter });
  const out = items.map((item) => {
    if (typeof item !== 'string')
      throw badRequest(`parameter '${parameter}' must be ${LIST}, got ${describe(item)} in it`, { parameter });
    const v = item.trim();
    if (v === '') throw badRequest(`parameter '${parameter}' must not hold an empty string`, { parameter });
    if (v.length > MAX_VALUE_CHARS)
      throw badRequest(`parameter '${parameter}' holds a value longer than ${MAX_VALUE_CHARS} characters`, {
        parameter,
      });
    return v;
  });
  return [...new Set(out)];
}

function paths(value: unknown): string[] | undefined {
  const globs = list(value, 'filters.path');
  if (globs === undefined) return undefined;
  for (const glob of globs) {
    const body = glob.startsWith('!') ? glob.slice(1) : glob;
    let problem = body === '' ? 'it is empty' : /\\$/.test(body) ? 'it ends in a lone backslash' : undefined;
    if (problem === undefined) {
      try {
        compilePaths([glob]);
      } catch (error) {
        problem = (error as Error).message;
      }
    }
    if (problem !== undefined)
      throw badRequest(`parameter 'filters.path' has a bad glob ${JSON.stringify(glob)}: ${problem}`, {
        parameter: 'filters.path',
      });
  }
  return globs;
}

function langs(value: unknown): string[] | undefined {
  const names = list(value, 'filters.lang')?.map((l) => l.toLowerCase());
  const unknown = names?.find((l) => !languageNames().includes(l));
  if (unknown !== undefined)
    throw badRequest(`parameter 'filters.lang': unknown language '${unknown}'; known: ${languageNames().join(', ')}`, {
      parameter: 'filters.lang',
    });
  return names === undefined ? undefined : [...new Set(names)];
}

function meta(value: unknown): Record<string, string[]> | undefined {
  if (value === undefined || value === null) return undefined;
  const object = readObject(value, 'filters.meta');
  const keys = Object.keys(object).filter((k) => object[k] !== undefined && object[k] !== null);
  if (keys.length === 0) return undefined;
  if (keys.length > MAX_META_KEYS)
    throw badRequest(`parameter 'filters.meta' has ${keys.length} keys; the limit is ${MAX_META_KEYS}`, {
      parameter: 'filters.meta',
    });
  const out: Record<string, string[]> = {};
  for (const key of keys.sort()) {
    const parameter = `filters.meta.${key}`;
    if (key.trim() === '' || key.length > 128)
      throw badRequest(`parameter 'filters.meta' has an empty or over-long key`, { parameter: 'filters.meta' });
    const raw = object[key];
    const items = (Array.isArray(raw) ? (raw as unknown[]) : [raw]).map((v) =>
      typeof v === 'number' || typeof v === 'boolean' ? String(v) : v,
    );
    out[key] = list(items, parameter)!;
  }
  return out;
}

/** A value given both at the top level and in `filters` must agree. */
function agree<T extends string | string[]>(name: string, top: T | undefined, nested: T | undefined): T | undefined {
  if (top !== undefined && nested !== undefined && JSON.stringify(top) !== JSON.stringify(nested)) {
    throw badRequest(
      `parameters '${name}' and 'filters.${name}' disagree (${JSON.stringify(top)} vs ` +
        `${JSON.stringify(nested)}); give one`,
      { parameter: name },
    );
  }
  return top ?? nested;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`;
}
