// The error a failing tap becomes: it names the plugin and the hook (Rollup's PLUGIN_ERROR). A
// client fault raised on purpose by a tap (a KbctxError such as bad_request) keeps its code.
import { KbctxError, isKbctxError } from './domain/errors.ts';

export class PluginError extends KbctxError {
  readonly plugin: string;
  readonly hook: string;

  constructor(plugin: string, hook: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : cause === undefined ? 'rejected without a reason' : `rejected with ${safeString(cause)}`;
    super(isKbctxError(cause) ? cause.code : 'plugin_error', `plugin '${plugin}' failed in hook ${hook}: ${reason}`, { cause });
    this.name = 'PluginError';
    this.plugin = plugin;
    this.hook = hook;
  }
}

function safeString(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
