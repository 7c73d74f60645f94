// `npm run bench:scripts`, part 3 (issue 21): valid script-tool calls while hostile clients keep a
// runaway tool busy. HOSTILE clients each call POST /tools/<runaway> back to back (`while true do
// end`, its own time-out); one client calls POST /tools/<valid> in a loop meanwhile. Prints the valid
// calls' p50/p99/max and their statuses, and what the runaway calls answered. Numbers only.
import { fmtMs, percentile } from './stats.ts';

export interface HostileOptions {
  request(pathName: string, body?: unknown): Promise<Response>;
  runaway: string;
  valid: string;
  hostileClients: number;
  durationMs: number;
  workers: () => number;
}

export async function runHostileScenario(o: HostileOptions): Promise<void> {
  const end = performance.now() + o.durationMs;
  const runawayCodes: string[] = [];
  let peakWorkers = 0;
  const hostile = async (): Promise<void> => {
    while (performance.now() < end) {
      const res = await o.request(`/tools/${o.runaway}`, {});
      await res.text();
      runawayCodes.push(String(res.status));
    }
  };
  const valid = async (): Promise<{ ms: number[]; codes: string[] }> => {
    const ms: number[] = [];
    const codes: string[] = [];
    await new Promise((r) => setTimeout(r, 300)); // the runaways are running first
    while (performance.now() < end) {
      const started = performance.now();
      const res = await o.request(`/tools/${o.valid}`, { x: 1 });
      await res.text();
      ms.push(performance.now() - started);
      codes.push(String(res.status));
      peakWorkers = Math.max(peakWorkers, o.workers());
      await new Promise((r) => setTimeout(r, 20));
    }
    return { ms, codes };
  };
  const [validResult] = await Promise.all([valid(), ...Array.from({ length: o.hostileClients }, hostile)]);
  const count = (codes: string[]): string =>
    [...new Set(codes)].map((c) => `${c}×${codes.filter((x) => x === c).length}`).join(', ');
  const v = validResult.ms;
  console.log(
    `POST /tools/${o.valid} while ${o.hostileClients} clients keep calling POST /tools/${o.runaway} for ` +
      `${(o.durationMs / 1000).toFixed(0)} s: ` +
      `n=${v.length} p50 ${fmtMs(percentile(v, 50))} ms, p99 ${fmtMs(percentile(v, 99))} ms, max ` +
      `${fmtMs(Math.max(...v))} ms; statuses ${count(validResult.codes)}`,
  );
  console.log(`  runaway calls answered: ${count(runawayCodes)}; peak worker threads seen ${peakWorkers}`);
}
