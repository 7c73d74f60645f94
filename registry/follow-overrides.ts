// An enabled registry extension runs its highest-precedence copy: a `[connectors|tools|agents.script.*]`
// entry whose path is the script of a registry extension (as `registry add` writes it) is pointed at the
// script of the registry that wins for that id, so `registry override`'s copy takes over without editing
// the user's config. Entries that point anywhere else are explicit config and stay as written.
// The registry library (six modules) is required only when a config has registries and script
// sections: every command opens the host through this follower, and most configs have neither (ADR 0130).
import type { Config } from '../core/config/types.ts';
import { scriptAgentsOf, scriptConnectorsOf, scriptToolsOf, type ScriptConfig } from '../plugins/lua-bridge/api.ts';
import { requireOwn } from '../core/load/require-own.ts';
import type * as Registries from './registries.ts';

type Sections = Readonly<Record<string, ScriptConfig>>;

/** `config` with enabled registry extensions following precedence (the same object when nothing moves). */
export function followOverrides(config: Config): Config {
  const { connectors, tools, agents } = config;
  const scripts = {
    connectors: scriptConnectorsOf(config),
    tools: scriptToolsOf(config),
    agents: scriptAgentsOf(config),
  };
  if (Object.keys(config.registries).length === 0 || Object.values(scripts).every((s) => Object.keys(s).length === 0))
    return config;
  const winner = new Map<string, string>(); // any provider's script path → the winning one
  const { loadRegistries, resolveExtensions } = requireOwn<typeof Registries>(import.meta.url, './registries.ts');
  try {
    for (const ext of resolveExtensions(loadRegistries(config)).values())
      for (const at of ext.providedAt) winner.set(at, ext.scriptPath);
  } catch {
    return config; // an unreadable registry folder: entries run as written; `registry list` reports the folder
  }
  const follow = (sections: Sections): Sections => {
    const moved = Object.entries(sections).map(([name, s]): [string, ScriptConfig] => [
      name,
      { ...s, path: winner.get(s.path) ?? s.path },
    ]);
    return moved.some(([name, s]) => s.path !== sections[name]?.path)
      ? Object.freeze(Object.fromEntries(moved))
      : sections;
  };
  const next = { connectors: follow(scripts.connectors), tools: follow(scripts.tools), agents: follow(scripts.agents) };
  if (next.connectors === scripts.connectors && next.tools === scripts.tools && next.agents === scripts.agents)
    return config;
  return Object.freeze({
    ...config,
    connectors: Object.freeze({ ...connectors, script: next.connectors }),
    tools: Object.freeze({ ...tools, script: next.tools }),
    agents: Object.freeze({ ...agents, script: next.agents }),
  });
}
