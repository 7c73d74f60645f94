// The embedding worker lowers its own thread's priority, and only its own: the server's main thread
// keeps the priority it had, so it wins the CPU from a running embed (issue 31). Linux only.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { EMBED_THREAD_NICENESS } from '../../../plugins/embedder-local/thread-priority.ts';

const THREAD_PRIORITY = JSON.stringify(
  new URL('../../../plugins/' + 'embedder-local' + '/thread-priority.ts', import.meta.url).href,
);
/** The calling thread's nice value (field 19 of /proc/thread-self/stat, after the command name). */
const niceness = (): number => Number(readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1]!.split(' ')[16]);

it('lowers the calling worker thread to the embedding niceness, leaving the main thread as it was', {
  skip: process.platform !== 'linux' && 'Linux only',
}, async () => {
  const before = niceness();
  const code = `
    const { parentPort } = require('node:worker_threads');
    const { readFileSync } = require('node:fs');
    const niceness = () => Number(readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1].split(' ')[16]);
    import(${THREAD_PRIORITY}).then((m) => {
      const lowered = m.lowerThreadPriority();
      parentPort.postMessage({ lowered, niceness: niceness() });
    });`;
  const worker = new Worker(code, { eval: true });
  const reply = await new Promise<{ lowered: boolean; niceness: number }>((resolve, reject) =>
    worker.once('message', resolve).once('error', reject),
  );
  await worker.terminate();
  assert.deepEqual(reply, { lowered: true, niceness: Math.max(before, EMBED_THREAD_NICENESS) });
  assert.equal(niceness(), before);
});
