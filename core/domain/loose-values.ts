// Loosely shaped values a plugin part returns (a connector's items, a tool's parameter list, an agent's prompt), made
// predictable: a script's empty table encodes as `{}`, so wherever an array is expected `{}` means "empty array".
import { KbctxError } from './errors.ts';

/** `[]` for nil or an empty table; the array itself; otherwise a script_error naming `what`. */
export function asArray(value: unknown, what: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value;
  if (typeof value === 'object' && Object.keys(value).length === 0) return [];
  throw new KbctxError('script_error', `${what} must be an array (a Lua sequence), got ${typeof value}`);
}

export function asString(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return undefined;
}
