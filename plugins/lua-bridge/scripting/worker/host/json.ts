// Host module `json` (parse side; `json.encode` is pure Lua in runner.lua so the Lua → JSON rules
// live in one place). `json.decode` is an alias set up by the runner.
import { toLua } from './to-lua.ts';

export function jsonParse(text: unknown): unknown {
  if (typeof text !== 'string') throw new Error(`json.parse: expected a string, got ${luaType(text)}`);
  try {
    return toLua(JSON.parse(text));
  } catch (error) {
    throw new Error(`json.parse: ${(error as Error).message}`, { cause: error });
  }
}

export function luaType(value: unknown): string {
  if (value === undefined || value === null) return 'nil';
  if (typeof value === 'object') return 'table';
  return typeof value;
}
