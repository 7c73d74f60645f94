// Closing the runtime waits for its worker threads (ADR 0253): a process that exits while a worker's V8
// isolate is still being torn down can abort inside V8, so `close()` resolves only once every thread —
// those retired or timed out earlier too — has exited. Counted in /proc/self/task (Linux).
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import { LuaFixture } from '../../../../helpers/lua.ts';

const threads = (): number => readdirSync('/proc/self/task').length;

describe('closing the Lua runtime', { skip: !existsSync('/proc/self/task') && 'needs /proc (Linux)' }, () => {
  it('resolves once every worker thread has exited, including one stopped at its time-out', async () => {
    const warm = new LuaFixture({ maxWorkers: 2 });
    assert.equal(await warm.exec('return 1'), 1); // the process's own lazily started threads exist from here on
    await warm.close();
    const before = threads();

    const fx = new LuaFixture({ maxWorkers: 2 });
    const calls = [1, 2, 3].map((n) => fx.exec(`return ${n}`, { file: `t${n}.lua` }));
    assert.deepEqual(await Promise.all(calls), [1, 2, 3]);
    await assert.rejects(fx.exec('while true do end', { timeoutSecs: 0.2 }), /timed out/);
    assert.ok(threads() > before, 'the workers are running');
    await fx.close();
    assert.equal(threads(), before, 'no worker thread is left once close() has resolved');
  });
});
