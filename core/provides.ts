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

/** What the kernel recorded while plugins were applied. */
export interface ProvidesFacts {
  hooks: Pick<KernelHooks, 'tools' | 'agents' | 'resources'>;
  /** Hook map → key → the plugins that tapped it. */
  keyed: ReadonlyMap<string, ReadonlyMap<string, readonly string[]>>;
  /** Plugin → the commands its `commands` taps name ('' for a tap naming none). */
  commandTaps: ReadonlyMap<string, ReadonlySet<string>>;
  /** Service id → the plugin that provided it. */
  services: ReadonlyMap<string, string>;
}

/**
 * Derives every plugin's entries once (`collect`: the collectors too); then checks one plugin's declaration against its
 * own.
 */
export function derivedProvides(
  facts: ProvidesFacts,
  collect: boolean,
): (plugin: string, declared: readonly string[]) => CheckedProvides {
  const derived = new Map<string, string[]>();
  const note = (plugin: string, entry: string): void =>
    void derived.set(plugin, [...(derived.get(plugin) ?? []), entry]);
  for (const [map, keys] of facts.keyed) {
    const kind = KEYED_KINDS[map as HookName];
    if (kind !== undefined)
      for (const [key, plugins] of keys) for (const plugin of new Set(plugins)) note(plugin, `${kind}:${key}`);
  }
  for (const [plugin, names] of facts.commandTaps)
    for (const name of names) if (name !== '') note(plugin, `command:${name}`);
  for (const [id, plugin] of facts.services) note(plugin, `service:${id}`);
  if (collect) collectProvided(facts.hooks, note);
  return (plugin, declared) =>
    checkProvides(declared, [...new Set(derived.get(plugin))], {
      collected: collect,
      openCommands: facts.commandTaps.get(plugin)?.has('') === true,
    });
}

/**
 * Calls `tools`, `agents` and `resources` with collectors that only note each item's plugin and name
 * (`tool:<name>`, `agent:<name>`, `resource:<uri or uriTemplate>`); collector taps only add, so this
 * does nothing else.
 */
function collectProvided(
  hooks: Pick<KernelHooks, 'tools' | 'agents' | 'resources'>,
  note: (plugin: string, entry: string) => void,
): void {
  hooks.tools.call(new PerPluginCollector((plugin, def) => note(plugin, `tool:${def.name}`)));
  hooks.agents.call(new PerPluginCollector((plugin, def) => note(plugin, `agent:${def.name}`)));
  hooks.resources.call(
    new PerPluginCollector((plugin, def) => note(plugin, `resource:${def.uri ?? def.uriTemplate ?? def.name}`)),
  );
}

export interface CheckedProvides {
  /** The derived entries, then the declared ones of kinds the kernel cannot see (`route:GET /x`, `tools:script`). */
  provides: string[];
  /**
   * Declared entries of a kind the kernel derives that the plugin did not provide (`tool:email_check` for
   * `email_check4`).
   */
  notProvided: string[];
}

/**
 * `declared` against `derived`. Checked kinds: the applied ones, the collected ones when `collected`,
 * `command` only when every `commands` tap of the plugin names its commands (`openCommands` false). A
 * declared entry ending in `*` matches by prefix (`tool:test_*`).
 */
function checkProvides(
  declared: readonly string[],
  derived: readonly string[],
  options: { collected: boolean; openCommands: boolean },
): CheckedProvides {
  const checked = (entry: string): boolean => {
    const kind = entry.slice(0, entry.indexOf(':'));
    if (kind === 'command' && options.openCommands) return false;
    return APPLIED_KINDS.has(kind) || (options.collected && COLLECTED_KINDS.has(kind));
  };
  const matches = (entry: string): boolean =>
    entry.endsWith('*') ? derived.some((d) => d.startsWith(entry.slice(0, -1))) : derived.includes(entry);
  const unchecked = declared.filter(
    (e) => !checked(e) && !COLLECTED_KINDS.has(e.slice(0, e.indexOf(':'))) && !derived.includes(e),
  );
  return { provides: [...derived, ...unchecked], notProvided: declared.filter((e) => checked(e) && !matches(e)) };
}
