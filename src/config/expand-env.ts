// `${VAR}` expansion in every string value of a parsed TOML tree. A missing variable is an error
// naming the key path, so a config never runs with a silently empty secret.
import { configError } from '../core/errors.ts';

const VAR = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export function expandEnv(value: unknown, env: NodeJS.ProcessEnv, file: string, path: string[] = []): unknown {
  if (typeof value === 'string') {
    return value.replace(VAR, (_match, name: string) => {
      const found = env[name];
      if (found === undefined) {
        throw configError(`${file}: ${path.join('.')} uses \${${name}}, but the environment variable ${name} is not set; set it or edit the value`);
      }
      return found;
    });
  }
  if (Array.isArray(value)) return value.map((v, i) => expandEnv(v, env, file, [...path, String(i)]));
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = expandEnv(v, env, file, [...path, k]);
    return out;
  }
  return value;
}

/** Every variable name a `${VAR}` in the tree refers to (Lua `env.get` may read these). */
export function referencedEnvVars(value: unknown, found: Set<string> = new Set()): string[] {
  if (typeof value === 'string') for (const m of value.matchAll(VAR)) found.add(m[1]!);
  else if (Array.isArray(value)) for (const v of value) referencedEnvVars(v, found);
  else if (value !== null && typeof value === 'object' && !(value instanceof Date)) for (const v of Object.values(value)) referencedEnvVars(v, found);
  return [...found];
}
