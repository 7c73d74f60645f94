// Which workers the pool keeps (issue 10): a worker is reused after a normal result or a Lua error,
// replaced after a memory-cap failure, and retired after maxJobsPerWorker jobs, with later calls
// still answered. Real worker threads and wasmoon.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { LuaFixture } from '../../../../helpers/lua.ts';

describe('worker recycling', () => {
  const fx = new LuaFixture({ maxWorkers: 1, maxJobsPerWorker: 3, memoryMaxBytes: 8 * 1024 * 1024 });
  after(() => fx.close());

  it('reuses a worker after results and Lua errors, retires it after maxJobsPerWorker jobs', async () => {
    assert.equal(await fx.exec('return 1'), 1);
    const first = fx.runtime.workersStarted;
    await assert.rejects(fx.exec('error("plain Lua error")'), /plain Lua error/);
    assert.equal(fx.runtime.workersStarted, first, 'a result and a Lua error keep the worker');
    assert.equal(await fx.exec('return 3'), 3); // the third job retires it
    assert.ok(fx.runtime.workersStarted > first);
    assert.equal(await fx.exec('return 4'), 4);
  });

  it('replaces a worker whose job hit the memory cap, and keeps answering', async () => {
    const before = fx.runtime.workersStarted;
    await assert.rejects(
      fx.exec('local t = {} for i = 1, 1e8 do t[i] = string.rep("x", 64) .. i end'),
      /memory limit exceeded/,
    );
    assert.equal(await fx.exec('return "fine"'), 'fine');
    assert.ok(fx.runtime.workersStarted > before);
  });
});
