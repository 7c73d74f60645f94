// Host module `env`: `env.get(name)` → the variable's value, or nil when unset or not allowed.
// Reads only the job's allowed variables ([scripts] env_allow), never the process environment.
export function envGetter(allowed: Readonly<Record<string, string>>): (name: unknown) => string | undefined {
  return (name) => {
    if (typeof name !== 'string') throw new Error('env.get: expected a variable name (string)');
    return Object.hasOwn(allowed, name) ? allowed[name] : undefined;
  };
}
