// `[server] workers = 2` (a real primary and two workers, 127.0.0.1, port 0): a scrape of /metrics, whichever
// worker answers it, holds every process's figures (ADR 0226). Each request opens its own connection, so the
// cluster's round-robin spreads them over both workers; each worker has its own search cache, so 20 searches of
// one query make one miss per worker: 18 hits summed proves both served it and both were counted.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, it } from 'node:test';
import { spawnServer, type KbctxServer } from '../../helpers/kbctx-server.ts';
import { eventually } from '../../helpers/live-server.ts';
import { Workspace } from '../../helpers/workspace.ts';
import { parsePrometheusText, sampleSum, type Sample } from './prometheus-text.ts';

const TOKEN = 'metrics-cluster-token';
const ws = new Workspace('kbctx-metrics-cluster-');
let s: KbctxServer;

before(async () => {
  ws.write('docs/fox.md', '# Foxes\n\nThe quick brown fox lives in a den.\n');
  ws.write('docs/dog.md', '# Dogs\n\nThe lazy dog sleeps all day.\n');
  ws.config(
    '[connectors.filesystem.docs]\nroot = "docs"\n\n[sync]\ninterval = "off"\n\n' +
      '[server]\nauth_token_env = "KBCTX_TEST_TOKEN"\nwatch = false\nworkers = 2\n',
  );
  // Synced first: the primary's start-up run changes nothing, so no worker's cache is emptied mid-test.
  assert.equal((await ws.kbctx(['sync', 'all'])).code, 0);
  s = await spawnServer(
    ws,
    ['serve', 'mcp', '--bind', '127.0.0.1:0'],
    { KBCTX_TEST_TOKEN: TOKEN },
    /Listening on (http:\/\/\S+)\n/,
  );
});

after(async () => {
  assert.equal(await s.stop(), 0);
  ws.cleanup();
});

/** One request on a connection of its own (no keep-alive: the cluster hands each connection to the next worker). */
function send(method: 'GET' | 'POST', path: string, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${s.url}${path}`,
      {
        method,
        agent: false,
        headers: { authorization: `Bearer ${TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function scrape(): Promise<Sample[]> {
  const res = await send('GET', '/metrics');
  assert.equal(res.status, 200, res.text);
  return parsePrometheusText(res.text);
}

it('every scrape, on either worker, counts the requests both workers answered', async () => {
  // Both workers listen and answer the primary: three processes in a scrape, with the primary's start-up run.
  const run = { connector: 'filesystem:docs', outcome: 'ok' };
  await eventually(async () => {
    const samples = await scrape();
    const ready = sampleSum(samples, 'kbctx_metrics_processes') === 3;
    return ready && sampleSum(samples, 'kbctx_sync_runs_total', run) === 1 ? true : undefined;
  }, 'the primary (its start-up run counted) and both workers in a scrape');
  for (let i = 0; i < 20; i++) {
    const res = await send('POST', '/tools/search', '{"query":"fox"}');
    assert.equal(res.status, 200, res.text);
  }
  const search = { method: 'POST', route: '/tools/search', status: '200' };
  for (let i = 0; i < 6; i++) {
    const samples = await scrape();
    assert.equal(sampleSum(samples, 'kbctx_metrics_processes'), 3);
    assert.equal(sampleSum(samples, 'kbctx_http_request_duration_seconds_count', search), 20);
    assert.equal(sampleSum(samples, 'kbctx_search_duration_seconds_count', { mode: 'keyword' }), 20);
    assert.equal(sampleSum(samples, 'kbctx_search_cache_hits_total'), 18, 'one miss per worker: both served');
    // The index is read by every process alike: not summed.
    assert.equal(sampleSum(samples, 'kbctx_index_documents', { source: 'filesystem:docs' }), 2);
  }
});
