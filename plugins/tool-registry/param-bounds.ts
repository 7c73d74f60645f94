// Bounds every tool and agent input inherits (issue 10): nesting depth, string lengths and keys that
// could pollute a prototype are checked before any plugin, worker, SQL or Lua state sees the value, so
// hostile input is a 400, never a 500. The walk is iterative: 100,000 levels cannot overflow the stack.
import { badRequest } from '../../core/api/plugin.ts';

/** Deepest nesting accepted in a parameter object (the object itself is level 1). */
export const MAX_PARAM_DEPTH = 32;
/** Default longest string parameter, in UTF-16 code units; a ParamSpec may set its own `maxLength`. */
export const MAX_STRING_PARAM_CHARS = 65_536;

/**
 * Keys refused at any depth (issue 29): `JSON.parse` makes `__proto__` an own key, and a plugin that
 * merges its parameters (`Object.assign`, a deep merge) would then set a prototype or reach
 * `constructor.prototype`.
 */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Throws bad_request when `input` is nested deeper than MAX_PARAM_DEPTH or holds a FORBIDDEN_KEYS key (named). */
export function checkShape(input: unknown): void {
  const stack: { value: unknown; depth: number }[] = [{ value: input, depth: 1 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_PARAM_DEPTH) {
      throw badRequest(`parameters are nested more than ${MAX_PARAM_DEPTH} levels deep; flatten the input`, {
        limit: MAX_PARAM_DEPTH,
      });
    }
    if (!Array.isArray(value)) checkKeys(value as Record<string, unknown>);
    for (const child of Object.values(value as Record<string, unknown>)) {
      if (child !== null && typeof child === 'object') stack.push({ value: child, depth: depth + 1 });
    }
  }
}

function checkKeys(value: Record<string, unknown>): void {
  for (const key of Object.keys(value)) {
    if (FORBIDDEN_KEYS.has(key))
      throw badRequest(`parameter key '${key}' is not accepted (it could change an object's prototype); rename it`, {
        parameter: key,
      });
  }
}

/** Throws bad_request naming the parameter when a string is longer than `limit`. */
export function checkLength(name: string, value: string, limit: number = MAX_STRING_PARAM_CHARS): void {
  if (value.length > limit) {
    throw badRequest(`parameter '${name}' is ${value.length} characters long; the limit is ${limit}`, {
      parameter: name,
      limit,
    });
  }
}
