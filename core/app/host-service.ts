// The `kbctx.host` service: what the host hands every plugin about this run — the whole validated
// config (the existing sections `[scripts]`, `[tools.script.*]` … that first-party plugins read), the
// environment, the check for a config part that uses an unset `${VAR}`, where to report parts that
// failed to load (shown by `serve`, `doctor`, `tool list`, never thrown), the loaded plugins, and how
// a plugin applies the plugins it loads at `boot` (the extensions plugin's `[extensions] modules`).
import { createServiceRef } from '../services.ts';
import type { Config } from '../config/types.ts';
import type { LoadedPluginInfo } from '../kernel.ts';
import type { Plugin } from '../plugin.ts';
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
}

export const hostService = createServiceRef<HostInfo>('kbctx.host');
