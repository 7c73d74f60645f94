// Hard time-outs: a spinning loop, a long sleep and a hung HTTP call are each ended at the script's
// time-out with KbctxError('timeout'), far before they would end on their own; the runtime recovers.
import { KbctxError } from '../../../../core/index.ts';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useLuaWithUpstream } from '../../../helpers/lua.ts';

const TIMEOUT_SECS = 1;

async function expectTimeout(promise: Promise<unknown>): Promise<number> {
  const started = performance.now();
  await assert.rejects(promise, (e: unknown) => {
    assert.ok(e instanceof KbctxError);
    assert.equal(e.code, 'timeout');
    assert.match(e.message, /timed out after 1 s/);
    return true;
  });
  return (performance.now() - started) / 1000;
}

/** Generous bounds: not before the time-out, and well before the unbounded case (60 s / forever). */
function assertAnsweredAtTimeout(seconds: number): void {
  assert.ok(seconds >= TIMEOUT_SECS * 0.9, `answered too early: ${seconds} s`);
  assert.ok(seconds < TIMEOUT_SECS * 5, `answered too late: ${seconds} s`);
}

describe('time-outs', () => {
  const env = useLuaWithUpstream();

  it('while true do end', async () => {
    assertAnsweredAtTimeout(await expectTimeout(env.fx.exec('while true do end', { timeoutSecs: TIMEOUT_SECS })));
  });

  it('sleep(60)', async () => {
    assertAnsweredAtTimeout(await expectTimeout(env.fx.exec('sleep(60)', { timeoutSecs: TIMEOUT_SECS })));
  });

  it('a hung HTTP call (no answer, default 30 s http time-out)', async () => {
    assertAnsweredAtTimeout(
      await expectTimeout(env.fx.exec(`return http.get("${env.server.url}/hang").body`, { timeoutSecs: TIMEOUT_SECS })),
    );
  });

  it('a long pattern match inside one C call', async () => {
    const body = 'local s = string.rep("a", 60000); return s:find(".-.-.-.-.-b")';
    assertAnsweredAtTimeout(await expectTimeout(env.fx.exec(body, { timeoutSecs: TIMEOUT_SECS })));
  });

  it('many runaway calls at once all end at their time-out, then normal calls work', async () => {
    const started = performance.now();
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, () => env.fx.exec('while true do end', { timeoutSecs: TIMEOUT_SECS })),
    );
    assert.ok(results.every((r) => r.status === 'rejected' && (r.reason as KbctxError).code === 'timeout'));
    assertAnsweredAtTimeout((performance.now() - started) / 1000);
    assert.equal(await env.fx.exec('return "alive"'), 'alive');
  });

  it('a caller that gives up stops the script', async () => {
    const controller = new AbortController();
    const file = env.fx.write('spin.lua', 'tool = {}\nfunction tool.execute() while true do end end\n');
    const call = env.fx.runtime.run(
      { kind: 'tool.execute', label: 'tool:spin', scriptPath: file, config: {}, input: {} },
      { timeoutSecs: 30, signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 200);
    await assert.rejects(call, /cancelled/);
  });
});
