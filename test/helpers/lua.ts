// Lua test fixture: a temp folder for real .lua scripts, a real ScriptRuntime (worker threads,
// wasmoon) whose log lines are captured, and a tiny way to run a tool body.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { JobKind } from '../../plugins/lua-bridge/scripting/protocol.ts';
import { after, before } from 'node:test';
import { ScriptRuntime, type ContextHandler } from '../../plugins/lua-bridge/scripting/runtime/script-runtime.ts';
import { startUpstream, type Upstream } from './http-server.ts';

export class LuaFixture {
  readonly dir: string;
  readonly runtime: ScriptRuntime;
  readonly logs: string[] = [];

  constructor(
    options: {
      maxWorkers?: number;
      memoryMaxBytes?: number;
      env?: Record<string, string>;
      maxJobsPerWorker?: number;
    } = {},
  ) {
    this.dir = mkdtempSync(path.join(tmpdir(), 'kbctx-lua-'));
    this.runtime = new ScriptRuntime({
      ...options,
      log: (label, level, message) => this.logs.push(`${label} [${level}] ${message}`),
    });
  }

  write(relative: string, source: string): string {
    const file = path.join(this.dir, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, source);
    return file;
  }

  run(
    kind: JobKind,
    scriptPath: string,
    input: unknown = {},
    options: { timeoutSecs?: number; context?: ContextHandler; config?: Record<string, unknown> } = {},
  ): Promise<unknown> {
    return this.runtime.run(
      { kind, label: `tool:${path.basename(scriptPath, '.lua')}`, scriptPath, config: options.config ?? {}, input },
      { timeoutSecs: options.timeoutSecs ?? 10, context: options.context },
    );
  }

  /** Writes a tool whose execute body is `body` and returns what it returned. */
  async exec(
    body: string,
    options: {
      params?: unknown;
      timeoutSecs?: number;
      context?: ContextHandler;
      config?: Record<string, unknown>;
      file?: string;
    } = {},
  ): Promise<unknown> {
    const file = this.write(
      options.file ?? 'tool.lua',
      `tool = { parameters = {} }\nfunction tool.execute(params, context)\n${body}\nend\n`,
    );
    const out = (await this.run('tool.execute', file, options.params ?? {}, options)) as { result?: unknown };
    return out.result ?? null;
  }

  async close(): Promise<void> {
    await this.runtime.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * A LuaFixture and an upstream HTTP server for the enclosing describe block: created in `before`,
 * closed in `after`. Read them through the returned holder once the block's tests run.
 */
export function useLuaWithUpstream(): { fx: LuaFixture; server: Upstream } {
  const env = {} as { fx: LuaFixture; server: Upstream };
  before(async () => {
    env.fx = new LuaFixture();
    env.server = await startUpstream();
  });
  after(async () => {
    await env.fx.close();
    await env.server.close();
  });
  return env;
}
