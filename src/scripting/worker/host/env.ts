// Host module `env`: `env.get(name)` → the variable's value, or nil when unset.
export function envGet(name: unknown): string | undefined {
  if (typeof name !== 'string') throw new Error('env.get: expected a variable name (string)');
  return process.env[name];
}
