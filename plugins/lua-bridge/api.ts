// lua-bridge's contract entry: the types of its config sections and their accessors (ADR 0192):
// `[connectors.script.<name>]`, `[tools.script.<name>]`, `[agents.script.<name>]` and `[scripts]`; the
// sections themselves are defined here too (one module at start-up, not two: ADR 0130).
// The Lua bridge's config sections (ADR 0164, 0179), Context Harness's names kept: `[connectors.script.<name>]`,
// `[tools.script.<name>]` and `[agents.script.<name>]` (`path`, `timeout` and any other key, handed to
// the script) and `[scripts]` (`env_allow`: variables Lua `env.get` may read).
import {
  connectorsOf,
  sectionOf,
  type Config,
  type ConfigSection,
  type ConfigSectionContext,
} from '../../core/api/plugin.ts';

// Connectors fetch whole sources: Context Harness gives script connectors 300 s, and so does kbctx.
export const CONNECTOR_TIMEOUT_SECS = 300;

/**
 * Reading a tool's or agent's metadata at start-up gets at least this long: it is not a call, and all
 * the scripts are read at once, so on a loaded machine a short `timeout` (meant for calls) would be
 * spent waiting for a worker and the tool dropped.
 */
export const META_FLOOR_SECS = 10;
/** The time-out for reading a script tool's or agent's metadata (its `timeout`, at least META_FLOOR_SECS). */
export const metaTimeoutSecs = (config: Pick<ScriptConfig, 'timeoutSecs'>): number =>
  Math.max(config.timeoutSecs, META_FLOOR_SECS);

/** A Lua script entry (connector, tool or agent): `path`, `timeout`, and every other key for the script. */
export interface ScriptConfig {
  readonly path: string;
  readonly timeoutSecs: number;
  readonly extra: Readonly<Record<string, unknown>>;
}

export interface ScriptsRuntimeConfig {
  /** Variables Lua `env.get` may read: `[scripts] env_allow` plus every `${VAR}` the config references. */
  readonly envAllow: readonly string[];
}

type Scripts = Readonly<Record<string, ScriptConfig>>;
/** `[connectors.script.<name>]`, `[tools.script.<name>]`, `[agents.script.<name>]`: name → entry. */
export const scriptConnectorsOf = (config: Config): Scripts => connectorsOf<ScriptConfig>(config, 'script');
export const scriptToolsOf = (config: Config): Scripts => sectionOf<Scripts | undefined>(config, 'tools.script') ?? {};
export const scriptAgentsOf = (config: Config): Scripts =>
  sectionOf<Scripts | undefined>(config, 'agents.script') ?? {};
/** `[scripts]`, with every variable the config references. */
export const scriptsConfigOf = (config: Config): ScriptsRuntimeConfig =>
  sectionOf<ScriptsRuntimeConfig | undefined>(config, 'scripts') ?? { envAllow: [] };

const entry = (timeout: number) => ({
  type: 'object',
  properties: { path: { type: 'string' }, timeout: { type: 'number', exclusiveMinimum: 0, default: timeout } },
  required: ['path'],
  additionalProperties: true,
});

const toScript = (
  { path, timeout, sync_interval: _interval, ...extra }: Record<string, unknown>,
  at: ConfigSectionContext,
): ScriptConfig => ({
  path: at.resolvePath(path as string),
  timeoutSecs: timeout as number,
  extra,
});

export const scriptConnectorSection: ConfigSection<ScriptConfig> = {
  schema: entry(CONNECTOR_TIMEOUT_SECS),
  toConfig: toScript,
};

/**
 * `[tools.script.<name>]` and `[agents.script.<name>]`: a table of named script entries (30 s by default), which need a
 * loaded plugin providing `tools:script` (`agents:script`): this one, or a replacement.
 */
const namedScriptsSection = (needs: string): ConfigSection<Record<string, ScriptConfig>> => ({
  schema: { type: 'object', additionalProperties: entry(30) },
  toConfig: (table, at) =>
    Object.fromEntries(Object.entries(table).map(([name, e]) => [name, toScript(e as Record<string, unknown>, at)])),
  needs,
});
export const scriptToolsSection = namedScriptsSection('tools:script');
export const scriptAgentsSection = namedScriptsSection('agents:script');

/** `[scripts]`: the variables the config allows, and (added here) every variable it references. */
export const scriptsSection: ConfigSection<ScriptsRuntimeConfig> = {
  schema: {
    type: 'object',
    properties: { env_allow: { type: 'array', items: { type: 'string' }, default: [] } },
    additionalProperties: false,
  },
  toConfig: (t, at) => ({ envAllow: [...new Set([...(t['env_allow'] as string[]), ...at.referencedEnv])].sort() }),
};
