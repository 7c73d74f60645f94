// `--param k=v` / `--arg k=v` flags → an object. Values are JSON when they parse (numbers, booleans,
// arrays), else strings; `asString` lists keys that always stay strings (string-typed parameters).
import { badRequest } from '../../core/api/plugin.ts';

export const collect = (value: string, previous: string[]): string[] => [...previous, value];

export function parseKeyValues(pairs: readonly string[], asString: ReadonlySet<string> = new Set()): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw badRequest(`expected key=value, got '${pair}'`);
    const key = pair.slice(0, eq);
    const raw = pair.slice(eq + 1);
    // Defined, not assigned: `--param __proto__=…` stays an own key, which validation then refuses.
    Object.defineProperty(out, key, { value: asString.has(key) ? raw : parseLoose(raw), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function parseLoose(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
