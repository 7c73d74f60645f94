// The Lua bridge's config sections (ADR 0164, 0179), Context Harness's names kept: `[connectors.script.<name>]`,
// `[tools.script.<name>]` and `[agents.script.<name>]` (`path`, `timeout` and any other key, handed to
// the script) and `[scripts]` (`env_allow`: variables Lua `env.get` may read).
import {
  CONNECTOR_TIMEOUT_SECS,
  type ConfigSection,
  type ConfigSectionContext,
  type ScriptConfig,
  type ScriptsRuntimeConfig,
} from '../../core/api/plugin.ts';

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

/** `[tools.script.<name>]` and `[agents.script.<name>]`: a table of named script entries (30 s by default). */
export const namedScriptsSection: ConfigSection<Record<string, ScriptConfig>> = {
  schema: { type: 'object', additionalProperties: entry(30) },
  toConfig: (table, at) =>
    Object.fromEntries(Object.entries(table).map(([name, e]) => [name, toScript(e as Record<string, unknown>, at)])),
};

/** `[scripts]`: the variables the config allows besides those it references (the host adds those). */
export const scriptsSection: ConfigSection<ScriptsRuntimeConfig> = {
  schema: {
    type: 'object',
    properties: { env_allow: { type: 'array', items: { type: 'string' }, default: [] } },
    additionalProperties: false,
  },
  toConfig: (t) => ({ envAllow: t['env_allow'] as string[] }),
};
