// What the pipeline hooks' taps may return, and what each call is about: the attribution wrapper
// (tap-attribution.ts) checks every result against its hook's shape, so a wrong one is reported naming
// the plugin, the hook and what came back, not as a failure deep inside kbctx. The checks run per
// document and per search: typeof and Array.isArray only, one pass over a list, no allocation when fine.
import { SEARCH_MODES } from './domain/models.ts';
import type { HookName } from './hooks.ts';

/** A hook's result shape: `wrong` describes a value that does not fit (undefined: it fits). */
export interface ResultShape {
  expected: string;
  wrong(value: unknown): string | undefined;
}

type Fields = Record<string, unknown>;
/** A record: not null, not a list, not a promise (a synchronous tap's slip, described as such). */
const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !isThenable(value);
const MODES: ReadonlySet<unknown> = new Set(SEARCH_MODES);

/** The first of `fields` whose value fails its test, as "an object whose x is …"; undefined when all pass. */
function wrongField(value: Fields, tests: Record<string, (v: unknown) => boolean>): string | undefined {
  for (const field in tests)
    if (!tests[field]!(value[field])) return `an object whose ${field} is ${describeValue(value[field])}`;
  return undefined;
}

const isString = (v: unknown): boolean => typeof v === 'string';
const isNumber = (v: unknown): boolean => typeof v === 'number';

/** A value that serialises as JSON (deeper values are the surface's to encode; this catches the usual slips). */
const jsonish = (value: unknown): string | undefined =>
  typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint' || isThenable(value)
    ? describeValue(value)
    : undefined;

const DRAFT = { title: isString, body: isString };
const REQUEST = { query: isString, mode: (v: unknown) => MODES.has(v), limit: isNumber };
const HIT = { id: isString, score: isNumber };

/**
 * Results of the hooks whose values kbctx goes on to use; undefined is always allowed (keep the value, or ask the next
 * tap).
 */
export const RESULT_SHAPES: Readonly<Partial<Record<HookName, ResultShape>>> = Object.freeze({
  document: {
    expected: 'a document draft (an object with a string title and body, or skip: true), or undefined to keep it',
    wrong: (v) =>
      v === undefined
        ? undefined
        : !isObject(v)
          ? describeValue(v)
          : v['skip'] === true
            ? undefined
            : wrongField(v, DRAFT),
  },
  chunk: {
    expected:
      "a list of strings (the chunks' texts) or of chunk pieces (objects with a string text and whole-number " +
      'lineStart ≤ lineEnd from 1), or undefined to leave the document to the next tap',
    wrong: (v) => (v === undefined ? undefined : Array.isArray(v) ? wrongItem(v, wrongChunkItem) : describeValue(v)),
  },
  query: {
    expected:
      `a search request (an object with a string query, a mode of ${SEARCH_MODES.slice(0, -1).join(', ')} or ` +
      `${SEARCH_MODES.at(-1)} and a number limit), or undefined to keep it`,
    wrong: (v) => (v === undefined ? undefined : isObject(v) ? wrongField(v, REQUEST) : describeValue(v)),
  },
  rank: {
    expected: 'a list of hits (objects with a string id and a number score, as received), or undefined to keep them',
    wrong: (v) =>
      v === undefined
        ? undefined
        : Array.isArray(v)
          ? wrongItem(v, (h) => (isObject(h) ? wrongField(h, HIT) : describeValue(h)))
          : describeValue(v),
  },
  toolCall: { expected: "a JSON value (the tool's answer), or undefined to let the tool run", wrong: jsonish },
  toolResult: { expected: 'a JSON value (the result), or undefined to keep it', wrong: jsonish },
  extract: {
    expected: 'an object with a string text, or undefined to leave the file to the next tap',
    wrong: (v) => (v === undefined ? undefined : isObject(v) ? wrongField(v, { text: isString }) : describeValue(v)),
  },
});

const isLine = (v: unknown): boolean => Number.isInteger(v) && (v as number) >= 1;
const isOptionalString = (v: unknown): boolean => v === undefined || typeof v === 'string';

/** A chunk: a string, or a ChunkPiece (camelCase, or snake_case `line_start`/`line_end` as a Lua table has them). */
function wrongChunkItem(item: unknown): string | undefined {
  if (typeof item === 'string') return undefined;
  if (!isObject(item)) return describeValue(item);
  const start = item['lineStart'] ?? item['line_start'];
  const end = item['lineEnd'] ?? item['line_end'];
  return (
    wrongField(item, { text: isString, symbol: isOptionalString, lang: isOptionalString }) ??
    wrongField(
      { lineStart: start, lineEnd: end },
      { lineStart: isLine, lineEnd: (e) => isLine(e) && (e as number) >= (start as number) },
    )
  );
}

function wrongItem(list: readonly unknown[], wrong: (item: unknown) => string | undefined): string | undefined {
  for (let i = 0; i < list.length; i++) {
    const w = wrong(list[i]);
    if (w !== undefined) return `a list whose item ${i} is ${w}`;
  }
  return undefined;
}

/** What a hook call is about, from its arguments (read only when a tap fails). */
export const CALL_ITEMS: Readonly<Partial<Record<HookName, (args: readonly unknown[]) => string | undefined>>> =
  Object.freeze({
    document: (args) => named('document', field(args[0], 'sourceId')),
    chunk: (args) => named('document', field(field(args[0], 'document'), 'sourceId')),
    query: (args) => query(field(args[0], 'query')),
    rank: (args) => query(field(args[1], 'query')),
    toolCall: (args) => named('tool', field(args[0], 'name')),
    toolResult: (args) => named('tool', field(args[1], 'name')),
    extract: (args) => named('file', field(args[0], 'fileName')),
  });

const field = (value: unknown, key: string): unknown => (isObject(value) ? value[key] : undefined);
const named = (kind: string, name: unknown): string | undefined =>
  typeof name === 'string' ? `${kind} '${name}'` : undefined;
const query = (text: unknown): string | undefined =>
  typeof text === 'string' ? `query ${shortString(text)}` : undefined;

function isThenable(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** A few words on what a value is: `a string ("abc")`, `a list of 3`, `an object with a, b`, `undefined`. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'string') return `a string (${shortString(value)})`;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return `a ${typeof value} (${String(value)})`;
  if (typeof value === 'function' || typeof value === 'symbol') return `a ${typeof value}`;
  if (Array.isArray(value)) return value.length === 0 ? 'an empty list' : `a list of ${value.length}`;
  if (isThenable(value)) return 'a promise (an async tap is registered with tapPromise)';
  const keys = Object.keys(value);
  return keys.length === 0
    ? 'an empty object'
    : `an object with ${keys.slice(0, 5).join(', ')}${keys.length > 5 ? ', …' : ''}`;
}

function shortString(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}
