// Runaway scripts must not starve the others (issue 21): with a pool of 2 workers, two runaway calls
// with a long time-out are still running when a valid call's result arrives, over and over; the
// runaways' own further calls wait their turn. Behaviour only: no timing is asserted. Real workers.
import { KbctxError } from '../../../../../core/index.ts';
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { LuaFixture } from '../../../../helpers/lua.ts';

describe('runaway isolation', () => {
  const fx = new LuaFixture({ maxWorkers: 2 });
  after(() => fx.close());
  const spin = fx.write('spin.lua', 'tool = {}\nfunction tool.execute() while true do end end\n');
  const ok = fx.write('ok.lua', 'tool = {}\nfunction tool.execute(p) return { echo = p.n } end\n');
  const runaway = (signal: AbortSignal): Promise<unknown> =>
    fx.runtime.run(
      { kind: 'tool.execute', label: 'tool:spin', scriptPath: spin, config: {}, input: {} },
      { timeoutSecs: 600, signal },
    );
  const valid = async (n: number): Promise<unknown> =>
    (
      (await fx.runtime.run(
        { kind: 'tool.execute', label: 'tool:ok', scriptPath: ok, config: {}, input: { n } },
        { timeoutSecs: 600 },
      )) as { result: unknown }
    ).result;

  it('valid calls complete while two runaway calls with a 600 s time-out keep both workers busy', {
    timeout: 120_000,
  }, async () => {
    const stop = new AbortController();
    let runawaysEnded = 0;
    const runaways = [runaway(stop.signal), runaway(stop.signal), runaway(stop.signal)].map((p) =>
      p.then(
        () => assert.fail('a runaway call returned'),
        (e: unknown) => {
          runawaysEnded++;
          assert.ok(e instanceof KbctxError && e.code === 'timeout', String(e));
        },
      ),
    );
    for (let n = 1; n <= 5; n++) assert.deepEqual(await valid(n), { echo: n });
    assert.equal(runawaysEnded, 0, 'the runaways were still running when the valid calls were answered');
    stop.abort();
    await Promise.all(runaways);
    assert.deepEqual(await valid(6), { echo: 6 });
  });
});
