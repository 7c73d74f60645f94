// JS values on their way into Lua: JSON `null` becomes nil (undefined), also inside arrays, where it
// leaves a hole (`[1, null, 3]` → `{1, nil, 3}`). Runs in the worker; pure.
// wasmoon pushes nested tables onto the Lua stack without growing it, so the depth is capped here and
// callers reserve LUA_STACK_SLOTS first (see run-job.ts, create-host.ts): past the stack, WASM traps.

/** Deepest nesting a value may have on its way into Lua (tool input, json.parse results). */
export const MAX_LUA_DEPTH = 100;
/** Stack slots a value of MAX_LUA_DEPTH needs while wasmoon pushes it (a table and a key per level), plus margin. */
export const LUA_STACK_SLOTS = 2 * MAX_LUA_DEPTH + 40;

export function toLua(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'object') return value;
  if (depth >= MAX_LUA_DEPTH) throw new Error(`value is nested deeper than ${MAX_LUA_DEPTH} levels`);
  if (Array.isArray(value)) return value.map((v) => toLua(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (v !== null && v !== undefined) out[k] = toLua(v, depth + 1);
  }
  return out;
}
