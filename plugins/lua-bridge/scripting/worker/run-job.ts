// Runs one job in a fresh Lua state (wasmoon, Lua 5.4): only the safe standard libraries, a memory
// cap, the host table, then runner.lua. Resolves to the runner's JSON result, parsed.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LuaLibraries, type LuaFactory } from 'wasmoon';
import type { Job, JobErrorKind } from '../protocol.ts';
import { readScriptFile } from '../script-file.ts';
import { createHost, type HostChannel } from './create-host.ts';
import { LUA_STACK_SLOTS, toLua } from './host/to-lua.ts';

const RUNNER = readFileSync(new URL('../lua/runner.lua', import.meta.url), 'utf8');
// No io or package. The runner strips os down to its clock functions and keeps debug.getinfo to itself.
const LIBRARIES = [
  LuaLibraries.Base,
  LuaLibraries.Coroutine,
  LuaLibraries.Table,
  LuaLibraries.String,
  LuaLibraries.Math,
  LuaLibraries.OS,
  LuaLibraries.Debug,
];

export class JobError extends Error {
  readonly kind: JobErrorKind;
  constructor(kind: JobErrorKind, message: string) {
    super(message);
    this.kind = kind;
  }
}

export async function runJob(factory: LuaFactory, job: Job, channel: HostChannel): Promise<unknown> {
  let source: string;
  try {
    source = readScriptFile(job.scriptPath);
  } catch (error) {
    throw new JobError(
      'script',
      `cannot read script ${job.scriptPath}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  const engine = await factory.createEngine({
    openStandardLibs: false,
    enableProxy: false,
    injectObjects: false,
    traceAllocations: true,
  });
  try {
    for (const lib of LIBRARIES) engine.global.loadLibrary(lib);
    // wasmoon 1.16's loadLibrary(UTF8) opens the string library under the name utf8: open the real one.
    engine.global.lua.luaopen_utf8(engine.global.address);
    engine.global.lua.lua_setglobal(engine.global.address, LuaLibraries.UTF8);
    engine.global.setMemoryMax(job.memoryMaxBytes);
    engine.global.set('__host', createHost(job, channel));
    // wasmoon pushes nested tables without growing the stack: reserve room for the deepest input first.
    if (!engine.global.lua.lua_checkstack(engine.global.address, LUA_STACK_SLOTS))
      throw new JobError('memory', 'cannot reserve the Lua stack');
    engine.global.set(
      '__job',
      toLua({
        kind: job.kind,
        chunkname: `@${path.basename(job.scriptPath)}`,
        source,
        config: job.config,
        input: job.input ?? {},
        with_context: job.withContext,
      }),
    );
    const out: unknown = await engine.doString(RUNNER);
    if (typeof out !== 'string') throw new JobError('script', 'the script runner returned no result');
    return JSON.parse(out);
  } catch (error) {
    if (error instanceof JobError) throw error;
    // A WASM trap or a JS stack overflow leaves the VM's memory in an unknown state: not a Lua error.
    if (error instanceof RangeError || (error as Error)?.name === 'RuntimeError')
      throw new JobError('trap', `the Lua VM failed (${(error as Error).message})`);
    const message = firstLine((error as Error)?.message ?? String(error));
    if (/not enough memory/.test(message))
      throw new JobError('memory', `memory limit exceeded (${Math.round(job.memoryMaxBytes / 1048576)} MiB)`);
    throw new JobError('script', message);
  } finally {
    engine.global.close();
  }
}

/** wasmoon appends a Lua stack traceback; the message users need is the part before it. */
function firstLine(message: string): string {
  const cut = message.indexOf('\nstack traceback:');
  return (cut >= 0 ? message.slice(0, cut) : message).trim();
}
