// `npm run fuzz`: the long property-based run (default 20,000 requests) against a real in-process server. Prints
// requests, the status histogram, the error codes (REST, JSON-RPC) and the 5xx count; exits 1 if any property failed.
// Env: FUZZ_RUNS (default 20000), FUZZ_SEED (default: time-based; printed so a run can be repeated).
import { startTestServer } from '../helpers/server.ts';
import { errorCodesText, FUZZ_FILES, FUZZ_SCRIPTS, fuzzServer, histogramText } from './http-fuzz.ts';

const runs = Number(process.env['FUZZ_RUNS'] ?? 20_000);
const seed = Number(process.env['FUZZ_SEED'] ?? Date.now() % 1_000_000);
const s = await startTestServer(FUZZ_SCRIPTS, { files: FUZZ_FILES, extraTools: true });
const started = Date.now();
console.log(`fuzzing ${s.url} with ${runs} requests, seed ${seed}`);
try {
  const report = await fuzzServer(s.port, {
    runs,
    seed,
    onProgress: (n) => n % 5000 === 0 && console.log(`  ${n} requests`),
  });
  const fiveXX = [...report.histogram].filter(([status]) => status >= 500).reduce((sum, [, n]) => sum + n, 0);
  const internal = s.log.filter((l) => /internal error/.test(l));
  console.log(`requests: ${report.requests} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(`status histogram: ${histogramText(report.histogram)}`);
  console.log(`error codes: ${errorCodesText(report.errorCodes)}`);
  console.log(
    `5xx: ${fiveXX}; time-outs: ${report.histogram.get(-1) ?? 0}; internal errors logged: ${internal.length}`,
  );
  console.log(
    `after the run: ${
      report.afterwards.length === 0
        ? 'healthy (health, search, MCP, script tool from 3 clients all 200)'
        : report.afterwards.join('; ')
    }`,
  );
  for (const f of report.failures.slice(0, 5))
    console.log(`FAILED ${f.status}: ${JSON.stringify(f.request).slice(0, 400)} → ${f.body}`);
  process.exitCode = report.failures.length === 0 && report.afterwards.length === 0 && internal.length === 0 ? 0 : 1;
} finally {
  await s.close();
}
