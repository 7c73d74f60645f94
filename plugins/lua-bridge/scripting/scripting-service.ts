// The Lua runtime as a kernel service: the host provides it (workers start on first use) together
// with the configured script sections; the Lua bridge plugin uses it for script connectors, tools,
// agents and `.lua` plugins. Types only: importing this file loads no Lua.
import { createServiceRef, type ScriptConfig, type PartCheck } from '../../../core/index.ts';
import type { Scripting, ScriptLoadFailure } from './scripting.ts';

export interface ScriptingHost {
  /** The runtime, with the context bridge over this index (opened once, closed by the host). */
  open(): Promise<Scripting>;
  /** `[tools.script.*]` and `[agents.script.*]` (registry entries included). */
  readonly tools: Readonly<Record<string, ScriptConfig>>;
  readonly agents: Readonly<Record<string, ScriptConfig>>;
  /** The guard of a config part using an unset `${VAR}` (`tools.script.x`); undefined when nothing is missing. */
  check(part: string): PartCheck | undefined;
  /** Scripts that failed to load: reported by the host's commands, never thrown. */
  reportFailures(failures: readonly ScriptLoadFailure[]): void;
}

export const scriptingService = createServiceRef<ScriptingHost>('kbctx.scripting');
