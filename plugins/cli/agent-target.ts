// What `kbctx agent test` runs: an agent name, or the path of a Lua agent script (as `tool test` takes a
// path). A path is the configured `[agents.script.<name>]` whose path it is; a script not configured yet
// (just made by `agent init`) is tested under its file name with the default time-out, writing nothing.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../../core/api/plugin.ts';
import { scriptAgentsOf } from '../lua-bridge/api.ts';

/** Lua script agents' time-out when the config has no section for the script. */
const DEFAULT_AGENT_TIMEOUT_SECS = 30;

export interface AgentTarget {
  name: string;
  /** The config to test with: the given one, or one with the unconfigured script added. */
  config: Config;
}

export function resolveAgentTarget(config: Config, arg: string, cwd: string): AgentTarget {
  const looksLikePath = arg.endsWith('.lua') || arg.includes('/') || arg.includes(path.sep);
  if (!looksLikePath) return { name: arg, config };
  const absolute = path.resolve(cwd, arg);
  const configured = Object.entries(scriptAgentsOf(config)).find(([, s]) => s.path === absolute);
  if (configured) return { name: configured[0], config };
  if (!existsSync(absolute)) return { name: arg, config }; // not a file: the registry says what is unknown
  const name = path.basename(absolute, '.lua');
  const script = { path: absolute, timeoutSecs: DEFAULT_AGENT_TIMEOUT_SECS, extra: {} };
  return {
    name,
    config: { ...config, agents: { ...config.agents, script: { ...scriptAgentsOf(config), [name]: script } } },
  };
}
