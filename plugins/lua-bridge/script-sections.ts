// `[connectors.script.<name>]`: `path`, `timeout` and any other key, handed to the script (ADR 0164).
import { CONNECTOR_TIMEOUT_SECS, type ConfigSection, type ScriptConfig } from '../../core/api/plugin.ts';

export const scriptConnectorSection: ConfigSection<ScriptConfig> = {
  schema: {
    type: 'object',
    properties: { path: { type: 'string' }, timeout: { type: 'number', exclusiveMinimum: 0, default: CONNECTOR_TIMEOUT_SECS } },
    required: ['path'],
    additionalProperties: true,
  },
  toConfig: ({ path, timeout, sync_interval: _interval, ...extra }, at) => ({ path: at.resolvePath(path as string), timeoutSecs: timeout as number, extra }),
};
