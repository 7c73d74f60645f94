// What a plugin provides, derived from what it really did (ADR 0180): the keys it tapped on the keyed
// factories (`createConnector.for('git')` → `connector:git`), the commands its `commands` tap names,
// the services it provided, and — when the collectors are called — the tools, agents and resources it
// added, by their real names. A declared `provides` is checked against it; it must not be trusted.
import { PerPluginCollector } from './collector.ts';
import type { HookName, KernelHooks } from './hooks.ts';

/** Keyed hook → the kind its keys provide. */
const KEYED_KINDS: Partial<Record<HookName, string>> = {
  createStore: 'store',
  createConnector: 'connector',
  createEmbedder: 'embedder',
  createTransport: 'transport',
  extract: 'format',
  resolvePlugin: 'plugins',
};

/** Kinds derived when the plugin is applied. */
const APPLIED_KINDS = new Set([...Object.values(KEYED_KINDS), 'command', 'service']);
/** Kinds derived only by calling the collector hooks (`collectProvided`). */
const COLLECTED_KINDS = new Set(['tool', 'agent', 'resource']);

/** The entries one tap provides: `connector:git` for a keyed factory, `command:<name>` per command a `commands` tap names. */
export function tapProvides(hook: string, keyed: { map: string; key: string } | undefined, commands: readonly string[] | undefined): string[] {
  const kind = keyed ? KEYED_KINDS[keyed.map as HookName] : undefined;
  if (kind !== undefined) return [`${kind}:${keyed!.key}`];
  if (hook === 'commands') return (commands ?? []).map((c) => `command:${c}`);
  return [];
}

/**
 * Calls `tools`, `agents` and `resources` with collectors that only note each item's plugin and name
 * (`tool:<name>`, `agent:<name>`, `resource:<uri or uriTemplate>`); collector taps only add, so this
 * does nothing else.
 */
export function collectProvided(hooks: Pick<KernelHooks, 'tools' | 'agents' | 'resources'>, note: (plugin: string, entry: string) => void): void {
  hooks.tools.call(new PerPluginCollector((plugin, def) => note(plugin, `tool:${def.name}`)));
  hooks.agents.call(new PerPluginCollector((plugin, def) => note(plugin, `agent:${def.name}`)));
  hooks.resources.call(new PerPluginCollector((plugin, def) => note(plugin, `resource:${def.uri ?? def.uriTemplate ?? def.name}`)));
}

export interface CheckedProvides {
  /** The derived entries, then the declared ones of kinds the kernel cannot see (`route:GET /x`, `tools:script`). */
  provides: string[];
  /** Declared entries of a kind the kernel derives that the plugin did not provide (`tool:email_check` for `email_check4`). */
  notProvided: string[];
}

/**
 * `declared` against `derived`. Checked kinds: the applied ones, the collected ones when `collected`,
 * `command` only when every `commands` tap of the plugin names its commands (`openCommands` false). A
 * declared entry ending in `*` matches by prefix (`tool:test_*`).
 */
export function checkProvides(declared: readonly string[], derived: readonly string[], options: { collected: boolean; openCommands: boolean }): CheckedProvides {
  const checked = (entry: string): boolean => {
    const kind = entry.slice(0, entry.indexOf(':'));
    if (kind === 'command' && options.openCommands) return false;
    return APPLIED_KINDS.has(kind) || (options.collected && COLLECTED_KINDS.has(kind));
  };
  const matches = (entry: string): boolean => (entry.endsWith('*') ? derived.some((d) => d.startsWith(entry.slice(0, -1))) : derived.includes(entry));
  const unchecked = declared.filter((e) => !checked(e) && !COLLECTED_KINDS.has(e.slice(0, e.indexOf(':'))) && !derived.includes(e));
  return { provides: [...derived, ...unchecked], notProvided: declared.filter((e) => checked(e) && !matches(e)) };
}
