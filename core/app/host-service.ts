// The `kbctx.host` service: what the host hands every plugin about this run — the whole validated
// config (the existing sections `[scripts]`, `[tools.script.*]` … that first-party plugins read), the
// environment, the check for a config part that uses an unset `${VAR}`, where to report parts that
// failed to load (shown by `serve`, `doctor`, `tool list`, never thrown), the loaded plugins, how
// a plugin applies the plugins it loads at `boot` (the extensions plugin's `[extensions] modules`), and what a
// registry of tools or agents needs to collect them itself (tool-registry, agents-inline; ADR 0254).
import { createServiceRef } from '../services.ts';
import type { Config } from '../config/types.ts';
import type { LoadedPluginInfo } from '../kernel.ts';
import { type Plugin, type PluginKernel, STAGE } from '../plugin.ts';
import type { PluginContext } from '../plugin-context.ts';
import type { PluginAgentDef, PluginToolDef } from '../tools/part-defs.ts';
import type { ToolHooks } from '../tools/tool-types.ts';
import type { PartCheck } from './part-guards.ts';

export interface LoadFailure {
  /** What failed, as `kind:name` (`tool:weather`, `agent:triage`, `extension:./x.mjs`). */
  label: string;
  message: string;
}

export interface HostInfo {
  readonly config: Config;
  readonly env: NodeJS.ProcessEnv;
  /** The guard of a config part using an unset `${VAR}` (`tools.script.x`); undefined when nothing is missing. */
  check(part: string): PartCheck | undefined;
  reportFailures(failures: readonly LoadFailure[]): void;
  /** The plugins applied so far, with what each provides (derived: the tools, agents, resources it adds too). */
  plugins(): readonly LoadedPluginInfo[];
  /**
   * Applies a plugin a plugin loaded (from `file`), during `boot`: after every configured plugin, so a
   * tool or agent of the same name another plugin adds is that plugin's (avvio's nested `register`).
   */
  applyPlugin(plugin: Plugin, file: string): Promise<void>;
  /**
   * Calls a collector hook (`tools`, `agents`): `add` gets each item as a tap adds it, the plugin whose tap added it
   * and that plugin's context for one call of the item. A throw from `add` fails the call, attributed to that tap.
   */
  collect<K extends keyof CollectedItems>(hook: K, add: (item: CollectedItems[K], origin: ItemOrigin) => void): void;
  /** The kernel's `toolCall` and `toolResult` taps as a tool registry runs them (read at each call). */
  readonly toolHooks: ToolHooks;
}

/** What the collector hooks a registry collects carry. */
export interface CollectedItems {
  tools: PluginToolDef;
  agents: PluginAgentDef;
}

/** The plugin that added a collected item, and its context for one call of the item (`signal`: the caller's). */
export interface ItemOrigin {
  readonly plugin: string;
  contextFor(signal: AbortSignal): PluginContext;
}

export const hostService = createServiceRef<HostInfo>('kbctx.host');

/**
 * A registry built from a collector hook (tool-registry, agents-inline; ADR 0254): created and collected on first use,
 * then collected again last of `boot`, so what plugins add at boot (script parts, extension modules' plugins) joins a
 * registry built before. `add` puts one item into it; which of two of a name wins is the registry's rule.
 */
export function collectedRegistry<K extends keyof CollectedItems, R>(
  kernel: PluginKernel,
  { plugin, hook }: { plugin: string; hook: K },
  create: () => R,
  add: (into: R, item: CollectedItems[K], origin: ItemOrigin) => void,
): () => R {
  let registry: R | undefined;
  const collect = (into: R): void => kernel.use(hostService).collect(hook, (item, origin) => add(into, item, origin));
  kernel.hooks.boot.tap({ name: plugin, stage: STAGE.FALLBACK }, () => {
    if (registry !== undefined) collect(registry);
  });
  return () => {
    if (registry !== undefined) return registry;
    const created = create();
    collect(created);
    return (registry = created);
  };
}
