// The worker message loop: loads the Lua WASM module once, then runs one job at a time from the main
// thread. Context-bridge calls go back to the main thread and are awaited here.
import { parentPort } from 'node:worker_threads';
import { LuaFactory } from 'wasmoon';
import type { ContextMethod, MainToWorker, WorkerToMain } from '../protocol.ts';
import { JobError, runJob } from './run-job.ts';

const port = parentPort;
if (!port) throw new Error('worker-loop.ts must run in a worker thread');
const send = (message: WorkerToMain): void => port.postMessage(message);

const factory = new LuaFactory();
await factory.getLuaModule();

const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
let nextCallId = 1;

port.on('message', (message: MainToWorker) => {
  if (message.type === 'host-reply') {
    const call = pending.get(message.callId);
    pending.delete(message.callId);
    if (message.ok) call?.resolve(message.value);
    else call?.reject(new Error(message.message));
    return;
  }
  const { id, job } = message;
  const channel = {
    log: (level: 'debug' | 'info' | 'warn' | 'error', text: string) =>
      send({ type: 'log', label: job.label, level, message: text }),
    context: (method: ContextMethod, args: unknown[]) =>
      new Promise<unknown>((resolve, reject) => {
        const callId = nextCallId++;
        pending.set(callId, { resolve, reject });
        send({ type: 'host', id, callId, method, args });
      }),
  };
  runJob(factory, job, channel).then(
    (value) => send({ type: 'done', id, ok: true, value }),
    (error: unknown) =>
      send({
        type: 'done',
        id,
        ok: false,
        kind: error instanceof JobError ? error.kind : 'script',
        message: (error as Error)?.message ?? String(error),
      }),
  );
});

send({ type: 'ready' });
