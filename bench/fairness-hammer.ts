// The runaway client of bench/fairness-bench.ts, in a worker thread of its own so its work never delays the timed
// client's event loop: autocannon at `connections` with token A's searches for `seconds`; posts back its counts.
import { parentPort, workerData } from 'node:worker_threads';
import autocannon from 'autocannon';

const { base, secret, seconds, connections, queries } = workerData as {
  base: string;
  secret: string;
  seconds: number;
  connections: number;
  queries: string[];
};
const result = await autocannon({
  url: base,
  connections,
  duration: seconds,
  requests: queries.map((q) => ({
    method: 'POST' as const,
    path: '/tools/search',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: q, mode: 'keyword' }),
  })),
});
parentPort!.postMessage({ ok: result['2xx'], refused: result.non2xx, rps: (result['2xx'] + result.non2xx) / seconds });
