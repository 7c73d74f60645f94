// `${VAR}` expansion in every string value of a parsed TOML tree. An unset variable never becomes a
// silent empty secret: it is recorded with the key path that uses it (see load-config.ts, which fails
// at once for core sections and defers the rest to the part that needs the value).
const VAR = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export interface UnsetVar {
  /** Dotted key path that uses the variable (`connectors.script.jira.api_token`). */
  key: string;
  variable: string;
}

/** Expands `${VAR}`s; unset ones expand to "" and are pushed to `unset`. */
export function expandEnv(value: unknown, env: NodeJS.ProcessEnv, unset: UnsetVar[], path: string[] = []): unknown {
  if (typeof value === 'string') {
    return value.replace(VAR, (_match, name: string) => {
      const found = env[name];
      if (found !== undefined) return found;
      unset.push({ key: path.join('.'), variable: name });
      return '';
    });
  }
  if (Array.isArray(value)) return value.map((v, i) => expandEnv(v, env, unset, [...path, String(i)]));
  if (value !== null && typeof value === 'object' && !(value instanceof Date) && !isCode(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = expandEnv(v, env, unset, [...path, k]);
    return out;
  }
  return value;
}

/** The message for a part that needs an unset variable. */
export function unsetMessage(file: string, u: UnsetVar): string {
  return (
    `${file}: ${u.key} uses \${${u.variable}}, but the environment ` +
    `variable ${u.variable} is not set; set it or edit the value`
  );
}

/** Every variable name a `${VAR}` in the tree refers to (Lua `env.get` may read these). */
export function referencedEnvVars(value: unknown, found: Set<string> = new Set()): string[] {
  if (typeof value === 'string') for (const m of value.matchAll(VAR)) found.add(m[1]!);
  else if (Array.isArray(value)) for (const v of value) referencedEnvVars(v, found);
  else if (value !== null && typeof value === 'object' && !(value instanceof Date) && !isCode(value))
    for (const v of Object.values(value)) referencedEnvVars(v, found);
  return [...found];
}

/**
 * Code, not data: an object with a method, or made by a class (a plugin object in a config module's
 * `plugins`, ADR 0128). It is kept as it is: not expanded, copied or frozen.
 */
export function isCode(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return (
    (proto !== Object.prototype && proto !== null && !Array.isArray(value)) ||
    Object.values(value).some((v) => typeof v === 'function')
  );
}
