// The REST surface of SPEC §4 over a real socket: every endpoint, its body, and every status code
// with the `{error: {code, message}}` body.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
before(async () => (s = await startTestServer()));
after(async () => s.close());

const json = { 'content-type': 'application/json' };
const post = (path: string, body: unknown, headers: Record<string, string> = json): Promise<Response> =>
  fetch(s.url + path, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });

async function expectError(res: Response, status: number, code: string, mentions?: string): Promise<void> {
  assert.equal(res.status, status);
  const body = (await res.json()) as { error: { code: string; message: string } };
  assert.deepEqual(Object.keys(body), ['error']);
  assert.equal(body.error.code, code);
  assert.equal(typeof body.error.message, 'string');
  if (mentions) assert.match(body.error.message, new RegExp(mentions));
}

describe('REST endpoints', () => {
  it('GET /health', async () => {
    const res = await fetch(`${s.url}/health`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /application\/json/);
    const body = (await res.json()) as { status: string; version: string };
    assert.equal(body.status, 'ok');
    assert.match(body.version, /^\d+\.\d+\.\d+/);
  });

  it('POST /tools/search returns results with the contract fields', async () => {
    const res = await post('/tools/search', { query: 'quick brown fox', limit: 5 });
    assert.equal(res.status, 200);
    const { results } = (await res.json()) as { results: Record<string, unknown>[] };
    assert.equal(results[0]?.['source_id'], 'fox.md');
    for (const key of ['id', 'source', 'source_id', 'title', 'score', 'snippet', 'source_url'])
      assert.ok(key in results[0]!, key);
  });

  it('POST /tools/search honours source and limit', async () => {
    const res = await post('/tools/search', { query: 'tea fox writer', limit: 1, source: 'filesystem:docs' });
    assert.equal(((await res.json()) as { results: unknown[] }).results.length, 1);
    const none = await post('/tools/search', { query: 'fox', source: 'git' });
    assert.deepEqual(await none.json(), { results: [] });
  });

  it('POST /tools/get returns the document, 404 for an unknown id', async () => {
    const { results } = (await (await post('/tools/search', { query: 'tea' })).json()) as { results: { id: string }[] };
    const res = await post('/tools/get', { id: results[0]!.id });
    assert.equal(res.status, 200);
    const doc = (await res.json()) as Record<string, unknown>;
    assert.equal(doc['source_id'], 'notes/tea.txt');
    assert.match(String(doc['body']), /Green tea/);
    for (const key of ['id', 'source', 'source_id', 'source_url', 'title', 'body', 'updated_at'])
      assert.ok(key in doc, key);
    await expectError(await post('/tools/get', { id: 'no-such-id' }), 404, 'not_found', 'no-such-id');
  });

  it('GET /tools/sources', async () => {
    const body = (await (await fetch(`${s.url}/tools/sources`)).json()) as { sources: Record<string, unknown>[] };
    assert.deepEqual(
      body.sources.map((x) => [x['source'], x['document_count'], x['chunk_count']]),
      [['filesystem:docs', 3, 3]],
    );
  });

  it('GET /tools/list describes every tool with an OpenAI-compatible schema', async () => {
    const { tools } = (await (await fetch(`${s.url}/tools/list`)).json()) as {
      tools: { name: string; builtin: boolean; parameters: Record<string, unknown> }[];
    };
    assert.deepEqual(
      tools.map((t) => t.name),
      ['search', 'get', 'sources'],
    );
    const search = tools[0]!;
    assert.equal(search.builtin, true);
    assert.equal(search.parameters['type'], 'object');
    assert.deepEqual(search.parameters['required'], ['query']);
    assert.deepEqual((search.parameters['properties'] as Record<string, { enum?: unknown }>)['mode']?.enum, [
      'keyword',
      'semantic',
      'hybrid',
    ]);
  });

  it('POST /tools/{name} answers {result} with the body of the dedicated path', async () => {
    // search and get own POST paths of their own (plain bodies); sources is GET, so POST /tools/sources is the generic
    // route.
    const res = await post('/tools/sources', {});
    assert.equal(res.status, 200);
    const body = (await res.json()) as { result: unknown };
    assert.deepEqual(Object.keys(body), ['result']);
    assert.deepEqual(body.result, await (await fetch(`${s.url}/tools/sources`)).json());
  });

  it('GET /agents/list and POST /agents/{name}/prompt', async () => {
    const { agents } = (await (await fetch(`${s.url}/agents/list`)).json()) as { agents: Record<string, unknown>[] };
    assert.deepEqual(agents, [
      {
        name: 'helper',
        description: 'Answers questions from the knowledge base',
        tools: ['search', 'get'],
        source: 'toml',
        arguments: [],
      },
    ]);
    const res = await post('/agents/helper/prompt', {});
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), {
      system: 'You answer from the knowledge base. Search first.',
      tools: ['search', 'get'],
      messages: [],
    });
    await expectError(await post('/agents/nobody/prompt', {}), 404, 'not_found', 'nobody');
  });
});

describe('REST errors', () => {
  it('validation failures are 400 naming the parameter', async () => {
    await expectError(await post('/tools/search', {}), 400, 'bad_request', "'query'");
    await expectError(await post('/tools/search', { query: '   ' }), 400, 'bad_request', "'query'");
    await expectError(await post('/tools/search', { query: 'x', mode: 'fuzzy' }), 400, 'bad_request', "'mode'");
    await expectError(await post('/tools/search', { query: 'x', limit: 0 }), 400, 'bad_request', "'limit'");
    await expectError(await post('/tools/search', { query: 'x', limit: 2.5 }), 400, 'bad_request', "'limit'");
    await expectError(await post('/tools/search', [1, 2]), 400, 'bad_request', 'object');
    await expectError(await post('/tools/get', { id: 7 }), 400, 'bad_request', "'id'");
  });

  it('semantic search without embeddings is 400 telling how to configure them', async () => {
    await expectError(
      await post('/tools/search', { query: 'fox', mode: 'hybrid' }),
      400,
      'embeddings_not_configured',
      'embed pending',
    );
  });

  it('unknown tool 404, unknown route 404, wrong method 405 with Allow', async () => {
    await expectError(await post('/tools/nope', {}), 404, 'not_found', 'nope');
    await expectError(await fetch(`${s.url}/nowhere`), 404, 'not_found');
    const res = await fetch(`${s.url}/tools/search`);
    assert.equal(res.headers.get('allow'), 'POST');
    await expectError(res, 405, 'method_not_allowed');
    await expectError(await post('/health', {}), 405, 'method_not_allowed');
  });

  it('malformed JSON 400, wrong content type 415, too large 413', async () => {
    await expectError(await post('/tools/search', '{"query":'), 400, 'bad_request', 'malformed JSON');
    await expectError(
      await post('/tools/search', '{"query":"fox"}', { 'content-type': 'text/plain' }),
      415,
      'unsupported_media_type',
    );
    const big = JSON.stringify({ query: 'x'.repeat(1_100_000) });
    await expectError(await post('/tools/search', big), 413, 'payload_too_large', 'max_body_bytes');
  });
});
