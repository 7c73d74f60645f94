// The `__host` table handed to runner.lua: every host function of one job, bound to its script
// folder, its log label and the channel back to the main thread (context bridge).
import path from 'node:path';
import { decorateFunction, type LuaThread } from 'wasmoon';
import type { ContextMethod, Job, LogLevel } from '../protocol.ts';
import { base64Decode, base64Encode } from './host/base64.ts';
import { hmacSha256, sha256 } from './host/crypto.ts';
import { envGetter } from './host/env.ts';
import { ConfinedFs } from './host/fs.ts';
import { httpRequest } from './host/http.ts';
import { jsonParse } from './host/json.ts';
import { sleep } from './host/sleep.ts';
import { LUA_STACK_SLOTS, toLua } from './host/to-lua.ts';

export interface HostChannel {
  log(level: LogLevel, message: string): void;
  /** Asks the main thread (which owns the index) and resolves with its JSON answer. */
  context(method: ContextMethod, args: unknown[]): Promise<unknown>;
}

const CONTEXT_METHODS: readonly string[] = ['search', 'get', 'sources'];
const LEVELS: readonly string[] = ['debug', 'info', 'warn', 'error'];

export function createHost(job: Job, channel: HostChannel): Record<string, unknown> {
  let fs: ConfinedFs | undefined;
  const confined = (): ConfinedFs => (fs ??= new ConfinedFs(path.dirname(job.scriptPath)));
  return {
    json_parse: withStack(jsonParse),
    env_get: envGetter(job.env),
    log: (level: unknown, message: unknown) =>
      channel.log(LEVELS.includes(String(level)) ? (level as LogLevel) : 'info', String(message ?? '')),
    fs_read: (p: unknown) => confined().read(p),
    fs_list: (dir: unknown, glob: unknown) => confined().list(dir, glob),
    base64_encode: base64Encode,
    base64_decode: base64Decode,
    sha256,
    hmac_sha256: hmacSha256,
    sleep,
    http: httpRequest,
    context: async (method: unknown, ...args: unknown[]) => {
      if (typeof method !== 'string' || !CONTEXT_METHODS.includes(method))
        throw new Error(`context: unknown method ${String(method)}`);
      return toLua(
        await channel.context(
          method as ContextMethod,
          args.map((a) => a ?? null),
        ),
      );
    },
  };
}

/**
 * A synchronous host function whose result may be deeply nested: it receives the calling Lua thread
 * and reserves stack for the result before wasmoon pushes it (which it does without checking room).
 */
function withStack(fn: (...args: unknown[]) => unknown): unknown {
  return decorateFunction(
    (thread: LuaThread, ...args: unknown[]) => {
      const result = fn(...args);
      if (!thread.lua.lua_checkstack(thread.address, LUA_STACK_SLOTS))
        throw new Error('not enough memory for the result');
      return result;
    },
    { receiveThread: true },
  );
}
