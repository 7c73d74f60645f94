// The metrics plugin over a real `kbctx serve mcp` (127.0.0.1, port 0) and a real index: a scrape after
// the live index's runs and 100 searches, parsed, matches what was done; /metrics needs the token unless
// `[server] metrics_public`; dropped (`"!metrics"`), there is no /metrics.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { spawnServer, type KbctxServer } from '../../helpers/kbctx-server.ts';
import { Workspace } from '../../helpers/workspace.ts';
import { hasSample, parsePrometheusText, sampleSum, type Sample } from './prometheus-text.ts';

const LISTENING = /Listening on (http:\/\/\S+)\n/;
const TOKEN = 'metrics-test-token';
const ENV = { KBCTX_TEST_TOKEN: TOKEN };
const AUTH = { authorization: `Bearer ${TOKEN}` };
const CONNECTOR = 'filesystem:docs';
const config = (server: string, plugins = '') =>
  `${plugins}[connectors.filesystem.docs]\nroot = "docs"\n\n[server]\n` +
  `auth_token_env = "KBCTX_TEST_TOKEN"\nwatch = false\n${server}`;

let ws: Workspace;
before(() => {
  ws = new Workspace('kbctx-metrics-');
  ws.write('docs/fox.md', '# Foxes\n\nThe quick brown fox lives in a den.\n');
  ws.write('docs/dog.md', '# Dogs\n\nThe lazy dog sleeps all day.\n');
  ws.write('docs/cat.md', '# Cats\n\nA cat watches the birds.\n');
  ws.write('private.toml', config(''));
  ws.write('public.toml', config('metrics_public = true\n'));
  ws.write('dropped.toml', config('', 'plugins = ["bundled", "!metrics"]\n'));
  ws.write('ranked.toml', config('', 'plugins = ["bundled", "./rank-plugin.mjs"]\n'));
  // A rank tap that keeps the order and marks every "fox" page uncacheable (as rerank does when it fails open).
  ws.write(
    'rank-plugin.mjs',
    `export default { name: 'fail-open', version: '1.0.0', kbctx: '^0.2', apply(kernel) {
      kernel.hooks.rank.tap({ name: 'fail-open', cacheKey: () => 'v1' }, (hits, request, _ctx, control) => {
        if (request.query === 'fox') control.uncacheable('kept the fused order');
        return hits;
      });
    } };\n`,
  );
});
after(() => ws.cleanup());

const serve = (file: string): Promise<KbctxServer> =>
  spawnServer(ws, ['-c', file, 'serve', 'mcp', '--bind', '127.0.0.1:0'], ENV, LISTENING);

async function finishedAt(url: string): Promise<string | null> {
  const res = await fetch(`${url}/sync/status`, { headers: AUTH });
  const body = (await res.json()) as { connectors: { state: string; last_finished_at: string | null }[] };
  const [status] = body.connectors;
  return status?.state === 'running' ? null : (status?.last_finished_at ?? null);
}

async function waitForRun(url: string, before: string | null): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const at = await finishedAt(url);
    if (at !== null && at !== before) return;
    await sleep(50);
  }
  throw new Error('the live index did not finish its run');
}

async function search(url: string, body: object): Promise<number> {
  const res = await fetch(`${url}/tools/search`, {
    method: 'POST',
    headers: { ...AUTH, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.equal(res.status, 200);
  return ((await res.json()) as { results: unknown[] }).results.length;
}

async function scrape(url: string): Promise<Sample[]> {
  const res = await fetch(`${url}/metrics`, { headers: AUTH });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return parsePrometheusText(await res.text());
}

describe('a scrape after a sync and 100 searches', () => {
  let s: KbctxServer;
  let samples: Sample[];
  let results = 0;
  before(async () => {
    s = await serve('private.toml');
    await waitForRun(s.url, null); // the start-up run
    const first = await finishedAt(s.url);
    const trigger = await fetch(`${s.url}/sync/${CONNECTOR}`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(trigger.status, 200);
    await waitForRun(s.url, first);
    // 60 searches of one query (the first misses the cache, the rest hit it), 40 distinct ones matching nothing.
    for (let i = 0; i < 60; i++) results += await search(s.url, { query: 'fox' });
    for (let i = 0; i < 40; i++) results += await search(s.url, { query: `zebra${i}`, mode: 'keyword' });
    samples = await scrape(s.url);
  });
  after(async () => {
    assert.equal(await s.stop(), 0);
  });

  it('counts the 100 searches: requests by route and status, tool calls, searches by mode, result counts', () => {
    assert.equal(results, 60);
    const search = { method: 'POST', route: '/tools/search', status: '200' };
    assert.equal(sampleSum(samples, 'kbctx_http_request_duration_seconds_count', search), 100);
    assert.equal(sampleSum(samples, 'kbctx_http_request_duration_seconds_bucket', { ...search, le: '+Inf' }), 100);
    assert.equal(sampleSum(samples, 'kbctx_tool_call_duration_seconds_count', { tool: 'search' }), 100);
    assert.equal(sampleSum(samples, 'kbctx_search_duration_seconds_count', { mode: 'keyword' }), 100);
    assert.equal(sampleSum(samples, 'kbctx_search_duration_seconds_count'), 100);
    assert.equal(sampleSum(samples, 'kbctx_search_results_count', { mode: 'keyword' }), 100);
    assert.equal(sampleSum(samples, 'kbctx_search_results_sum', { mode: 'keyword' }), 60);
    assert.equal(sampleSum(samples, 'kbctx_search_results_bucket', { mode: 'keyword', le: '0' }), 40);
  });

  it('counts the search cache: 59 hits of the repeated query, a miss for each other one', () => {
    assert.equal(sampleSum(samples, 'kbctx_search_cache_hits_total'), 59);
    assert.ok(sampleSum(samples, 'kbctx_search_cache_misses_total') >= 41);
  });

  it('counts the live index runs per connector, their documents, and the index per source at scrape time', () => {
    assert.equal(sampleSum(samples, 'kbctx_sync_runs_total', { connector: CONNECTOR, outcome: 'ok' }), 2);
    assert.equal(sampleSum(samples, 'kbctx_sync_runs_total'), 2);
    const docs = (kind: string) => sampleSum(samples, 'kbctx_sync_documents_total', { connector: CONNECTOR, kind });
    assert.equal(docs('upserted'), 3); // the start-up run
    assert.equal(docs('unchanged'), 3); // the triggered one
    assert.equal(sampleSum(samples, 'kbctx_sync_errors_total', { connector: CONNECTOR }), 0);
    assert.equal(sampleSum(samples, 'kbctx_index_documents', { source: CONNECTOR }), 3);
    assert.ok(sampleSum(samples, 'kbctx_index_chunks', { source: CONNECTOR }) >= 3);
    // The whole index's size as the store reports it (an SQLite file holds a page of every table at least).
    assert.ok(sampleSum(samples, 'kbctx_index_bytes') >= 4096, String(sampleSum(samples, 'kbctx_index_bytes')));
    assert.equal(
      sampleSum(samples, 'kbctx_sync_chunks_written_total', { connector: CONNECTOR }),
      sampleSum(samples, 'kbctx_index_chunks', { source: CONNECTOR }),
    );
  });

  it("carries prom-client's process metrics", () => {
    assert.ok(hasSample(samples, 'process_cpu_user_seconds_total'));
    assert.ok(hasSample(samples, 'nodejs_heap_size_used_bytes'));
  });

  it('needs the token: 401 without it or with a wrong one, and the 401s are counted on their route', async () => {
    assert.equal((await fetch(`${s.url}/metrics`)).status, 401);
    const wrong = await fetch(`${s.url}/metrics`, { headers: { authorization: 'Bearer nope' } });
    assert.equal(wrong.status, 401);
    assert.match(wrong.headers.get('www-authenticate') ?? '', /^Bearer/);
    const later = await scrape(s.url);
    assert.equal(
      sampleSum(later, 'kbctx_http_request_duration_seconds_count', { route: '/metrics', status: '401' }),
      2,
    );
  });
});

it('[server] metrics_public = true: /metrics answers without the token, the rest still needs it', async () => {
  const s = await serve('public.toml');
  try {
    const res = await fetch(`${s.url}/metrics`);
    assert.equal(res.status, 200);
    assert.ok(hasSample(parsePrometheusText(await res.text()), 'kbctx_search_cache_hits_total'));
    assert.equal((await fetch(`${s.url}/tools/list`)).status, 401);
  } finally {
    assert.equal(await s.stop(), 0);
  }
});

it(
  'with rank taps: the rank stage is timed when it runs, and ' + 'the pages a tap marks uncacheable are counted',
  async () => {
    const s = await serve('ranked.toml');
    try {
      await waitForRun(s.url, null);
      for (let i = 0; i < 5; i++) await search(s.url, { query: 'fox' }); // uncacheable: ranked each time
      for (let i = 0; i < 3; i++) await search(s.url, { query: 'dog' }); // ranked once, then the cached page
      const samples = await scrape(s.url);
      assert.equal(sampleSum(samples, 'kbctx_rank_duration_seconds_count'), 6);
      assert.equal(sampleSum(samples, 'kbctx_rank_uncacheable_total'), 5);
      assert.equal(sampleSum(samples, 'kbctx_search_duration_seconds_count', { mode: 'keyword' }), 8);
    } finally {
      assert.equal(await s.stop(), 0);
    }
  },
);

it('"!metrics": no /metrics route', async () => {
  const s = await serve('dropped.toml');
  try {
    assert.equal((await fetch(`${s.url}/metrics`, { headers: AUTH })).status, 404);
  } finally {
    assert.equal(await s.stop(), 0);
  }
});
