// The environment Lua scripts may read through `env.get`: the variables named in [scripts] env_allow
// plus those the config references with ${VAR} (Config.scripts.envAllow), with their current values.

export function scriptEnv(allowed: readonly string[], env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of allowed) {
    const value = env[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}
