// Drives a running kbctx server with generated hostile requests (arbitraries.ts) and checks the
// properties of issue 10: no 5xx for a client fault, the server stays healthy, and valid calls
// (search, a Lua script tool from 3 concurrent clients) succeed afterwards. Used by the fixed-seed
// test in `npm test` and by `npm run fuzz`.
import { Agent, request } from 'node:http';
import fc from 'fast-check';
import { anyRequest, type FuzzRequest } from './arbitraries.ts';

export interface FuzzReport {
  requests: number;
  /** status code (0: connection closed by the server, e.g. after a 413) → count */
  histogram: Map<number, number>;
  /** Error codes in the answers → count: `rest:bad_request`, `mcp:-32602` (JSON-RPC errors, also in SSE events). */
  errorCodes: Map<string, number>;
  /** Requests answered 5xx or not at all within the time limit, with what came back. */
  failures: { request: FuzzRequest; status: number | 'timeout'; body: string }[];
  /** Problems found after the run (health, valid calls); empty when healthy. */
  afterwards: string[];
}

const LANES = 4;
const BATCH = 250;
const REQUEST_TIMEOUT_MS = 30_000;

export async function fuzzServer(
  port: number,
  options: { runs: number; seed: number; onProgress?: (done: number) => void },
): Promise<FuzzReport> {
  const agent = new Agent({ keepAlive: true, maxSockets: LANES });
  const report: FuzzReport = { requests: 0, histogram: new Map(), errorCodes: new Map(), failures: [], afterwards: [] };
  try {
    for (let start = 0; start < options.runs; start += BATCH) {
      // Batches with derived seeds: the same seed always gives the same requests, without holding them all.
      const batch = fc.sample(anyRequest, {
        numRuns: Math.min(BATCH, options.runs - start),
        seed: options.seed + start,
      });
      let next = 0;
      const lane = async (): Promise<void> => {
        while (next < batch.length) {
          const req = batch[next++]!;
          const { status, body } = await send(agent, port, req);
          report.requests++;
          const code = status === 'timeout' ? -1 : status;
          report.histogram.set(code, (report.histogram.get(code) ?? 0) + 1);
          for (const error of errorCodesIn(body)) report.errorCodes.set(error, (report.errorCodes.get(error) ?? 0) + 1);
          if (status === 'timeout' || status >= 500)
            report.failures.push({ request: req, status, body: body.slice(0, 300) });
        }
      };
      await Promise.all(Array.from({ length: LANES }, lane));
      options.onProgress?.(report.requests);
    }
    report.afterwards = await checkHealthy(agent, port);
  } finally {
    agent.destroy();
  }
  return report;
}

function send(agent: Agent, port: number, r: FuzzRequest): Promise<{ status: number | 'timeout'; body: string }> {
  return new Promise((resolve) => {
    const headers = {
      ...r.headers,
      ...(r.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(r.body)) }),
    };
    const req = request({ host: '127.0.0.1', port, method: r.method, path: r.path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', () => resolve({ status: res.statusCode ?? 0, body: '' }));
    });
    req.setTimeout(REQUEST_TIMEOUT_MS, () => {
      req.destroy();
      resolve({ status: 'timeout', body: '' });
    });
    // the server closed the connection (413 mid-body, bad framing)
    req.on('error', () => resolve({ status: 0, body: '' }));
    req.end(r.body);
  });
}

async function checkHealthy(agent: Agent, port: number): Promise<string[]> {
  const problems: string[] = [];
  const json = { 'content-type': 'application/json' };
  const expect200 = async (label: string, r: FuzzRequest): Promise<void> => {
    const { status, body } = await send(agent, port, r);
    if (status !== 200) problems.push(`${label}: ${status} ${body.slice(0, 200)}`);
  };
  await expect200('GET /health', { method: 'GET', path: '/health', headers: {}, body: undefined });
  await expect200('search', { method: 'POST', path: '/tools/search', headers: json, body: '{"query":"fox"}' });
  const mcp = { ...json, accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
  await expect200('MCP tools/list', {
    method: 'POST',
    path: '/mcp',
    headers: mcp,
    body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
  });
  const client = async (n: number): Promise<void> => {
    for (let i = 0; i < 10; i++)
      await expect200(`script tool, client ${n}`, {
        method: 'POST',
        path: '/tools/shout',
        headers: json,
        body: JSON.stringify({ text: `c${n}-${i}` }),
      });
  };
  await Promise.all([client(1), client(2), client(3)]);
  return problems;
}

/** Lua tool and agent files (and their config) the fuzzed server should offer. */
export const FUZZ_SCRIPTS = `
[tools.script.shout]
path = "tools/shout.lua"
[agents.script.greeter]
path = "agents/greeter.lua"
`;
export const FUZZ_FILES = {
  'tools/shout.lua':
    'tool = { description = "Shouts", parameters = { { name = "text", type = "string", required = true } } }\n' +
    'function tool.execute(p) return { text = string.upper(p.text) } end\n',
  'agents/greeter.lua':
    'agent = { description = "Greets", arguments = { { name = "who" } } }\nfunction agent.resolve(args) return { ' +
    'system = "Hello " .. tostring(args.who) } end\n',
};

/**
 * The error codes an answer carries: REST `{"error":{"code":"x"}}`, JSON-RPC `"error":{"code":-32602}` (one per message
 * of a batch or SSE stream).
 */
function errorCodesIn(body: string): string[] {
  return [...body.matchAll(/"error":\{"code":(-?\d+|"[a-z_]+")/g)].map((m) =>
    m[1]!.startsWith('"') ? `rest:${m[1]!.slice(1, -1)}` : `mcp:${m[1]!}`,
  );
}

/** `{"mcp:-32602": 80, ...}` sorted by code. */
export const errorCodesText = (h: Map<string, number>): string =>
  JSON.stringify(Object.fromEntries([...h].sort((a, b) => a[0].localeCompare(b[0]))));

/** `{"200": 120, ...}` sorted by status. */
export const histogramText = (h: Map<number, number>): string =>
  JSON.stringify(
    Object.fromEntries(
      [...h].sort((a, b) => a[0] - b[0]).map(([k, v]) => [k === -1 ? 'timeout' : k === 0 ? 'closed' : String(k), v]),
    ),
  );
