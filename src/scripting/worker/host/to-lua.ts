// JS values on their way into Lua: JSON `null` becomes nil (undefined), also inside arrays, where it
// leaves a hole (`[1, null, 3]` → `{1, nil, 3}`). Runs in the worker; pure.
export function toLua(value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value)) return value.map(toLua);
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (v !== null && v !== undefined) out[k] = toLua(v);
    }
    return out;
  }
  return value;
}
