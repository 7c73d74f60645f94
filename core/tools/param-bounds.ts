// Size bounds every tool and agent input inherits (issue 10): nesting depth and string lengths are
// checked before any worker, SQL or Lua state sees the value, so hostile input is a 400, never a 500.
// The walk is iterative: a body nested 100,000 levels deep cannot overflow the stack here.
import { badRequest } from '../domain/errors.ts';

/** Deepest nesting accepted in a parameter object (the object itself is level 1). */
export const MAX_PARAM_DEPTH = 32;
/** Default longest string parameter, in UTF-16 code units; a ParamSpec may set its own `maxLength`. */
export const MAX_STRING_PARAM_CHARS = 65_536;

/** Throws bad_request when `input` is nested deeper than MAX_PARAM_DEPTH. */
export function checkDepth(input: unknown): void {
  const stack: { value: unknown; depth: number }[] = [{ value: input, depth: 1 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_PARAM_DEPTH) {
      throw badRequest(`parameters are nested more than ${MAX_PARAM_DEPTH} levels deep; flatten the input`, { limit: MAX_PARAM_DEPTH });
    }
    for (const child of Object.values(value as Record<string, unknown>)) {
      if (child !== null && typeof child === 'object') stack.push({ value: child, depth: depth + 1 });
    }
  }
}

/** Throws bad_request naming the parameter when a string is longer than `limit`. */
export function checkLength(name: string, value: string, limit: number = MAX_STRING_PARAM_CHARS): void {
  if (value.length > limit) {
    throw badRequest(`parameter '${name}' is ${value.length} characters long; the limit is ${limit}`, { parameter: name, limit });
  }
}
