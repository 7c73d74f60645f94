// The Lua scripting facade the composition root uses: one runtime (worker pool) per process, and
// loaders for script tools, agents and connectors. Loading reads metadata in the sandbox.
import { KbctxError, type Connector } from '../../../core/api/plugin.ts';
import { loadScriptAgent } from './script-agent.ts';
import { ScriptConnector } from './script-connector.ts';
import { loadScriptTool, type ScriptTool } from './script-tool.ts';
import {
  ScriptRuntime,
  stderrLog,
  type ContextHandler,
  type LogSink,
  type RuntimeOptions,
} from './runtime/script-runtime.ts';
import type { ScriptConfig } from '../api.ts';
import type { Agent } from '../../agents-inline/api.ts';

export interface ScriptLoadFailure {
  label: string;
  message: string;
}

export interface ScriptingOptions extends RuntimeOptions {
  /** The context bridge for tools and agents; without it `context.*` raises an error. */
  context?: ContextHandler | undefined;
}

const NO_CONTEXT: ContextHandler = () =>
  Promise.reject(new Error('the context bridge is not available here (no index is open)'));

export class Scripting {
  readonly runtime: ScriptRuntime;
  private readonly context: ContextHandler;
  private readonly log: LogSink;

  constructor(options: ScriptingOptions = {}) {
    this.log = options.log ?? stderrLog;
    this.runtime = new ScriptRuntime({ ...options, log: this.log });
    this.context = options.context ?? NO_CONTEXT;
  }

  connector(name: string, config: ScriptConfig): Connector {
    return new ScriptConnector(this.runtime, name, config, this.log);
  }

  /** Reads the tool's metadata in the sandbox. Rejects with timeout / script_error. */
  tool(name: string, config: ScriptConfig): Promise<ScriptTool> {
    return loadScriptTool(this.runtime, name, config, this.context);
  }

  agent(name: string, config: ScriptConfig): Promise<Agent> {
    return loadScriptAgent(this.runtime, name, config, this.context);
  }

  /** Loads every entry in parallel; a broken script is reported, never fatal for the others. */
  async loadAll<T>(
    kind: 'tool' | 'agent',
    entries: Readonly<Record<string, ScriptConfig>>,
  ): Promise<{ loaded: T[]; failures: ScriptLoadFailure[] }> {
    const names = Object.keys(entries).sort();
    const settled = await Promise.allSettled(
      names.map((n) => (kind === 'tool' ? this.tool(n, entries[n]!) : this.agent(n, entries[n]!))),
    );
    const loaded: T[] = [];
    const failures: ScriptLoadFailure[] = [];
    settled.forEach((s, i) => {
      if (s.status === 'fulfilled') loaded.push(s.value as T);
      else
        failures.push({
          label: `${kind}:${names[i]}`,
          message: s.reason instanceof KbctxError ? s.reason.message : String(s.reason),
        });
    });
    return { loaded, failures };
  }

  close(): Promise<void> {
    return this.runtime.close();
  }
}
