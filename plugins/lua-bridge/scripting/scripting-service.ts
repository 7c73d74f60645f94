// The Lua runtime of this plugin: opened on first use (workers start then) with the context bridge
// over the index, and closed at shutdown. Script parts read their sections through it. Loading this
// file loads no Lua.
import {
  createServiceRef,
  hostService,
  indexService,
  type PartCheck,
  type PluginKernel,
  type LoadFailure,
} from '../../../core/api/plugin.ts';
import type { Scripting } from './scripting.ts';
import { scriptAgentsOf, scriptsConfigOf, scriptToolsOf, type ScriptConfig } from '../api.ts';

export interface ScriptingHost {
  /** The runtime, with the context bridge over this index (opened once, closed at shutdown). */
  open(): Promise<Scripting>;
  /** `[tools.script.*]` and `[agents.script.*]` (registry entries included). */
  readonly tools: Readonly<Record<string, ScriptConfig>>;
  readonly agents: Readonly<Record<string, ScriptConfig>>;
  /** The guard of a config part using an unset `${VAR}` (`tools.script.x`); undefined when nothing is missing. */
  check(part: string): PartCheck | undefined;
  /** Scripts that failed to load: reported by the host's commands, never thrown. */
  reportFailures(failures: readonly LoadFailure[]): void;
}

/** The Lua runtime this plugin opened, for tools outside the kernel (benchmarks read its worker count). */
export const luaRuntimeService = createServiceRef<ScriptingHost>('lua-bridge.runtime');

/** The plugin's runtime over the kernel's host and index services. */
export function scriptingHost(
  kernel: PluginKernel,
): ScriptingHost & { close(): Promise<void>; openBare(): Promise<Scripting> } {
  let opening: Promise<Scripting> | undefined;
  let opened: Scripting | undefined;
  const host = () => kernel.use(hostService);
  const env = async () =>
    (await import('./script-env.ts')).scriptEnv(scriptsConfigOf(host().config).envAllow, host().env);
  return {
    open: () =>
      (opening ??= (async () => {
        const [{ Scripting }, { createContextBridge }] = await Promise.all([
          import('./scripting.ts'),
          import('./context-bridge.ts'),
        ]);
        const { store, searchDeps, connectorLabels } = kernel.use(indexService);
        return (opened = new Scripting({
          context: createContextBridge({ store, searchDeps, connectorLabels }),
          env: await env(),
        }));
      })()),
    /** A runtime without the index (`connector test`): `context.*` is unavailable; the caller closes it. */
    openBare: async () => new (await import('./scripting.ts')).Scripting({ env: await env() }),
    get tools() {
      return scriptToolsOf(host().config);
    },
    get agents() {
      return scriptAgentsOf(host().config);
    },
    check: (part) => host().check(part),
    reportFailures: (failures) => host().reportFailures(failures),
    close: async () => opened?.close(),
  };
}
