// The HTTP providers against real servers on 127.0.0.1:0 speaking the OpenAI and Ollama wire formats.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { KbctxError } from '../../../core/domain/errors.ts';
import { OllamaEmbedder } from '../../../plugins/embedder-ollama/ollama-embedder.ts';
import { OpenAiEmbedder } from '../../../plugins/embedder-openai/openai-embedder.ts';
import { parseRetryAfter } from '../../../plugins/embedder-openai/post-json.ts';

type Handler = (body: Record<string, unknown>, req: IncomingMessage, res: ServerResponse) => void;

interface FakeServer {
  url: string;
  requests: { path: string; body: Record<string, unknown>; auth: string | undefined; at: number }[];
  handler: Handler;
  close(): Promise<void>;
}

async function startServer(): Promise<FakeServer> {
  const fake: FakeServer = { url: '', requests: [], handler: () => undefined, close: () => Promise.resolve() };
  const server: Server = createServer((req, res) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(data || '{}') as Record<string, unknown>;
      fake.requests.push({ path: req.url ?? '', body, auth: req.headers.authorization, at: Date.now() });
      fake.handler(body, req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

const vectorFor = (text: string, dims: number): number[] =>
  Array.from({ length: dims }, (_, i) => ((text.length + i) % 7) + 1);
const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};
const openAiOk: Handler = (body, _req, res) => {
  const input = body['input'] as string[];
  // Real servers may return data out of order; `index` is what counts.
  const data = input.map((t, index) => ({ object: 'embedding', index, embedding: vectorFor(t, 8) })).reverse();
  json(res, 200, { object: 'list', data, model: body['model'], usage: { prompt_tokens: 1, total_tokens: 1 } });
};

const retry = { maxRetries: 3, timeoutMs: 2000, baseDelayMs: 5 };

describe('OpenAI-compatible embedder', () => {
  let server: FakeServer;
  before(async () => (server = await startServer()));
  after(() => server.close());
  const make = (over: Partial<ConstructorParameters<typeof OpenAiEmbedder>[0]> = {}): OpenAiEmbedder =>
    new OpenAiEmbedder({
      ...retry,
      baseUrl: `${server.url}/v1`,
      model: 'text-embedding-3-small',
      dims: 8,
      apiKey: 'sk-test',
      batchSize: 2,
      concurrency: 1,
      ...over,
    });

  it('sends the wire format and returns unit vectors in input order', async () => {
    server.requests = [];
    server.handler = openAiOk;
    const out = await make().embed(['a', 'bbb']);
    const req = server.requests[0];
    assert.equal(req?.path, '/v1/embeddings');
    assert.equal(req?.auth, 'Bearer sk-test');
    assert.deepEqual(req?.body, {
      model: 'text-embedding-3-small',
      input: ['a', 'bbb'],
      encoding_format: 'float',
      dimensions: 8,
    });
    await make({ model: 'bge-m3' }).embed(['a']);
    assert.equal(server.requests[1]?.body['dimensions'], undefined); // other models never get the field
    assert.equal(out.length, 2);
    const expected = vectorFor('bbb', 8);
    const norm = Math.hypot(...expected);
    assert.ok(Math.abs((out[1]?.[0] ?? 0) - (expected[0] ?? 0) / norm) < 1e-6);
    assert.ok(Math.abs(Math.hypot(...(out[0] ?? [])) - 1) < 1e-6);
  });

  it('retries 429 honouring Retry-After, then succeeds', async () => {
    server.requests = [];
    let calls = 0;
    server.handler = (body, req, res) =>
      ++calls === 1
        ? json(res, 429, { error: { message: 'slow down' } }, { 'retry-after': '1' })
        : openAiOk(body, req, res);
    await make().embed(['x']);
    assert.equal(server.requests.length, 2);
    const waited = (server.requests[1]?.at ?? 0) - (server.requests[0]?.at ?? 0);
    assert.ok(waited >= 900, `waited ${waited} ms, Retry-After asked for 1 s`);
  });

  it('retries 500s up to max_retries, then reports upstream_error', async () => {
    server.requests = [];
    server.handler = (_b, _r, res) => json(res, 500, { error: { message: 'boom' } });
    await assert.rejects(
      make().embed(['x']),
      (e: unknown) => e instanceof KbctxError && e.code === 'upstream_error' && /HTTP 500: boom/.test(e.message),
    );
    assert.equal(server.requests.length, 4); // 1 + 3 retries
  });

  it('does not retry other 4xx', async () => {
    server.requests = [];
    server.handler = (_b, _r, res) => json(res, 401, { error: { message: 'bad key' } });
    await assert.rejects(make().embed(['x']), /HTTP 401: bad key/);
    assert.equal(server.requests.length, 1);
  });

  it('times out a server that never answers, with the timeout code', async () => {
    server.requests = [];
    server.handler = () => undefined; // hold the connection
    await assert.rejects(
      make({ timeoutMs: 150, maxRetries: 1 }).embed(['x']),
      (e: unknown) => e instanceof KbctxError && e.code === 'timeout',
    );
    assert.equal(server.requests.length, 2);
  });

  it('rejects vectors of the wrong dimension', async () => {
    server.handler = openAiOk;
    await assert.rejects(make({ dims: 16 }).embed(['x']), /8-dimensional vectors but \[embedding\] dims = 16/);
  });

  it('rejects a wrong number of vectors', async () => {
    server.handler = (_b, _r, res) => json(res, 200, { data: [{ index: 0, embedding: [1, 2] }] });
    await assert.rejects(make({ dims: null }).embed(['x', 'y']), /returned 1 vectors for 2 texts/);
  });

  it('reports an unreachable server as upstream_error', async () => {
    const dead = await startServer();
    await dead.close();
    await assert.rejects(
      make({ baseUrl: `${dead.url}/v1`, maxRetries: 0 }).embed(['x']),
      (e: unknown) => e instanceof KbctxError && e.code === 'upstream_error',
    );
  });
});

describe('Ollama embedder', () => {
  let server: FakeServer;
  before(async () => (server = await startServer()));
  after(() => server.close());
  const make = (dims: number | null = null): OllamaEmbedder =>
    new OllamaEmbedder({ ...retry, url: server.url, model: 'nomic-embed-text', dims, batchSize: 8, concurrency: 1 });

  it('speaks /api/embed with a batch of inputs', async () => {
    server.requests = [];
    server.handler = (body, _r, res) =>
      json(res, 200, { model: body['model'], embeddings: (body['input'] as string[]).map((t) => vectorFor(t, 6)) });
    const out = await make().embed(['one', 'two', 'three']);
    assert.equal(server.requests[0]?.path, '/api/embed');
    assert.deepEqual(server.requests[0]?.body, {
      model: 'nomic-embed-text',
      input: ['one', 'two', 'three'],
      truncate: true,
    });
    assert.equal(out.length, 3);
    assert.equal(out[0]?.length, 6);
  });

  it('turns a missing model into a hint to pull it', async () => {
    server.handler = (_b, _r, res) =>
      json(res, 404, { error: 'model "nomic-embed-text" not found, try pulling it first' });
    await assert.rejects(make().embed(['x']), /ollama pull nomic-embed-text/);
  });

  it('rejects wrong dims', async () => {
    server.handler = (body, _r, res) =>
      json(res, 200, { embeddings: (body['input'] as string[]).map((t) => vectorFor(t, 6)) });
    await assert.rejects(make(768).embed(['x']), /6-dimensional vectors but \[embedding\] dims = 768/);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    assert.equal(parseRetryAfter('2'), 2000);
    assert.equal(parseRetryAfter(new Date(10_000).toUTCString(), 4000), 6000);
    assert.equal(parseRetryAfter(null), null);
    assert.equal(parseRetryAfter('soon'), null);
  });
});
