// Property-based fuzzing in `npm test` (issue 10): a fixed-seed run of hostile REST and MCP requests
// against the real server. No 5xx for a client fault; afterwards the server is healthy and a Lua
// script tool answers 3 concurrent clients (a trapped worker put back in the pool would fail here).
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { FUZZ_FILES, FUZZ_SCRIPTS, fuzzServer, histogramText } from './http-fuzz.ts';

const RUNS = Number(process.env['FUZZ_TEST_RUNS'] ?? 4000);
let s: TestServer;
before(async () => (s = await startTestServer(FUZZ_SCRIPTS, { files: FUZZ_FILES, extraTools: true })));
after(async () => s.close());

it(`answers ${RUNS} generated hostile requests without a 5xx and stays healthy (seed 42)`, {
  timeout: 300_000,
}, async () => {
  const report = await fuzzServer(s.port, { runs: RUNS, seed: 42 });
  const detail =
    `histogram ${histogramText(report.histogram)}\n` + `${JSON.stringify(report.failures.slice(0, 3), null, 1)}`;
  assert.equal(report.requests, RUNS);
  assert.deepEqual(report.failures, [], detail);
  assert.deepEqual(report.afterwards, []);
  assert.ok(
    !s.log.some((l) => /internal error/.test(l)),
    s.log
      .filter((l) => /internal error/.test(l))
      .slice(0, 3)
      .join('\n'),
  );
});
