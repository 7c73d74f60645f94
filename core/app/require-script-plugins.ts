// Script tool and agent sections and inline agents need the plugin that serves them (`tools:script`,
// `agents:script`, `agents:inline`):
// when it is dropped, the config asks for something nothing provides, which is a config error naming
// the bundled plugin that would (`"!lua-bridge"` → "needs the plugin lua-bridge").
import type { Plugin } from '../plugin.ts';
import type { Config } from '../config/types.ts';
import { configError } from '../domain/errors.ts';

/** `loaded`: the applied plugins' declared `provides` (these kinds are declared only: ADR 0180). */
export function requireScriptPlugins(config: Config, loaded: readonly { declared: readonly string[] }[], bundled: readonly Plugin[]): void {
  const sections = [
    { kind: 'tools', form: 'script', names: Object.keys(config.tools.script) },
    { kind: 'agents', form: 'script', names: Object.keys(config.agents.script) },
    { kind: 'agents', form: 'inline', names: Object.keys(config.agents.inline) },
  ];
  for (const { kind, form, names } of sections) {
    const what = `${kind}:${form}`;
    if (names.length === 0 || loaded.some((p) => p.declared.includes(what))) continue;
    const provider = bundled.find((p) => p.provides?.includes(what))?.name;
    const needs = provider ? `the plugin ${provider}, which is not loaded (plugins drops it with "!${provider}")` : `a plugin providing ${what}, and none is loaded`;
    throw configError(`[${kind}.${form}.${names[0]}] needs ${needs}`);
  }
}
