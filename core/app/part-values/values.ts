import { KbctxError } from '../../domain/errors.ts';
// Shapes of values coming back from Lua, made predictable: an empty Lua table encodes as `{}`, so
// wherever an array is expected `{}` means "empty array". Also the JSON-safe copy of a config section.

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

/** A config section as the script sees it: plain JSON (TOML dates become strings). */
export function toScriptConfig(extra: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(extra)) as Record<string, unknown>;
}
