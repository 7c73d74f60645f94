// Issue 34 (ADR 0222): the telemetry plugin's spans, received by a stand-in OTLP/HTTP collector on 127.0.0.1 from the
// real CLI and server: a sync's (connector, scan, each document with its hook taps and store write), a search's (its
// query and rank taps, keyword stage) under the HTTP request's span, and nothing sent when traces are off.
import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import { startHashingProvider } from '../../helpers/hashing-provider.ts';
import { spawnServer } from '../../helpers/kbctx-server.ts';
import { Workspace } from '../../helpers/workspace.ts';
import { OtlpCollector } from './otlp-collector.ts';

const ws = new Workspace('kbctx-traces-');
const collector = new OtlpCollector();
let endpoint = '';
// A plugin with a `query` and a `rank` tap, so the search's hook spans show.
const TAPS_PLUGIN = `export default {
  name: 'taps', version: '1.0.0', kbctx: '^0.2',
  apply(kernel) {
    kernel.hooks.query.tapPromise('taps', async (request) => request);
    kernel.hooks.rank.tapPromise('taps', async (hits) => hits);
  },
};
`;
const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';
const CONFIG = '[db]\npath = "index.sqlite"\n[connectors.filesystem.docs]\nroot = "docs"\n';

before(async () => {
  endpoint = await collector.start();
  ws.write('docs/a.md', '# Ospreys\n\nOspreys fish in rivers and lakes.\n');
  ws.write('docs/b.md', '# Herons\n\nHerons wait in the shallows.\n');
  ws.write('taps.mjs', TAPS_PLUGIN);
});
after(async () => {
  await collector.close();
  ws.cleanup();
});
beforeEach(() => collector.clear());

it('a sync sends its spans: sync → connector → scan and each document (chunk taps, store write)', async () => {
  // `[telemetry] otlp_endpoint` instead of the variable.
  ws.config(`${CONFIG}[telemetry]\notlp_endpoint = "${endpoint}"\n`);
  const r = await ws.kbctx(['sync', 'all']);
  assert.equal(r.code, 0, r.stderr);
  const sync = collector.one('sync');
  assert.equal(sync.parentSpanId, '');
  assert.equal(sync.resource['service.name'], 'kbctx');
  const connector = collector.one('sync.connector');
  assert.equal(connector.parentSpanId, sync.spanId);
  assert.equal(connector.attributes['kbctx.source'], 'filesystem:docs');
  assert.deepEqual(
    [...new Set(collector.childrenOf(connector))],
    ['sync.delete', 'sync.document', 'sync.scan'],
    'the scan, the documents and the deletions are the connector’s children',
  );
  const documents = collector.named('sync.document');
  assert.deepEqual(documents.map((d) => d.attributes['kbctx.source_id']).sort(), ['a.md', 'b.md']);
  for (const doc of documents) {
    const children = collector.childrenOf(doc);
    assert.ok(children.includes('sync.store_write'), children.join());
    assert.ok(children.includes('chunk chunker-default'), `the chunk hook's taps: ${children.join()}`);
  }
  assert.ok(
    collector.spans.every((s) => s.traceId === sync.traceId),
    'one trace',
  );
});

it(
  'a REST search sends the request span (a child of the caller’s ' +
    'traceparent) with the search, its hook taps and keyword stage below it',
  async () => {
    ws.config(`plugins = ["bundled", "./taps.mjs"]\n${CONFIG}`);
    const server = await spawnServer(ws, ['serve', 'mcp', '--bind', '127.0.0.1:0', '--no-watch'], {
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_SERVICE_NAME: 'kb-test',
    });
    try {
      const res = await fetch(`${server.url}/tools/search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` },
        body: JSON.stringify({ query: 'osprey', limit: 1 }),
      });
      assert.equal(res.status, 200, await res.clone().text());
      assert.equal(((await res.json()) as { results: unknown[] }).results.length, 1);
    } finally {
      assert.equal(await server.stop(), 0, server.stderr()); // SIGTERM: shutdown flushes the batch
    }
    const request = collector.one('POST /tools/search');
    assert.equal(request.traceId, CALLER_TRACE, "the caller's trace (traceparent)");
    assert.equal(request.parentSpanId, CALLER_SPAN);
    assert.equal(request.kind, 2, 'SERVER');
    assert.equal(request.attributes['http.response.status_code'], 200);
    assert.equal(request.resource['service.name'], 'kb-test', 'OTEL_SERVICE_NAME honoured');
    const search = collector.one('search');
    assert.equal(search.parentSpanId, request.spanId);
    assert.equal(search.attributes['kbctx.search.mode'], 'keyword');
    // The bundled metrics plugin times the rank stage with a tap before and after the others once any rank tap exists
    // (ADR 0216): its taps are traced like every tap.
    assert.deepEqual(collector.childrenOf(search), [
      'query taps',
      'rank metrics',
      'rank metrics',
      'rank taps',
      'search.keyword',
    ]);
    assert.equal(collector.one('search.keyword').traceId, request.traceId);
  },
);

it('with OTEL_SDK_DISABLED=true nothing is sent, even with an endpoint', async () => {
  ws.config(CONFIG);
  const r = await ws.kbctx(['search', 'osprey'], {
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SDK_DISABLED: 'true' },
  });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Ospreys/);
  assert.equal(collector.requests, 0);
});

it('a CLI search with the variable set sends its spans before the command exits', async () => {
  ws.config(CONFIG);
  const r = await ws.kbctx(['search', 'heron'], { env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint } });
  assert.equal(r.code, 0, r.stderr);
  const search = collector.one('search');
  assert.equal(search.parentSpanId, '');
  assert.deepEqual(collector.childrenOf(search), ['search.keyword']);
});

it('with embeddings, a sync has its embedding stage and a hybrid search its vector and fusion stages', async () => {
  const provider = await startHashingProvider(16);
  try {
    ws.config(
      `${CONFIG}[embedding]\nprovider = "openai"\nbase_url = "${provider.baseUrl}"\nmodel = "hash-16"\ndims = 16\n`,
    );
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint };
    const synced = await ws.kbctx(['sync', 'all', '--full'], { env });
    assert.equal(synced.code, 0, synced.stderr);
    assert.equal(collector.one('sync.embed').parentSpanId, collector.one('sync.connector').spanId);
    collector.clear();
    const r = await ws.kbctx(['search', 'osprey', '--mode', 'hybrid'], { env });
    assert.equal(r.code, 0, r.stderr);
    const search = collector.one('search');
    assert.equal(search.attributes['kbctx.search.mode'], 'hybrid');
    const stages = collector.childrenOf(search);
    for (const stage of ['search.embed_query', 'search.fusion', 'search.keyword', 'search.vector'])
      assert.ok(stages.includes(stage), `${stage} under search: ${stages.join(', ')}`);
  } finally {
    await provider.close();
  }
});
