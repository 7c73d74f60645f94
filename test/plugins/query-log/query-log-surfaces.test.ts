// The query log over the real surfaces (ADR 0220): a server with a token and `[query_log]`, searched over
// REST, as the web page (its `kbctx-surface` header), with the official MCP client and by the CLI, logs one
// line each with the right surface and token name, the request's parameters and its results — never the secret.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

const TOKEN = 'query-log-secret-token';
let s: TestServer;
before(async () => (s = await startTestServer('\n[query_log]\nfile = "logs/queries.jsonl"\n', { authToken: TOKEN })));
after(async () => s.close());

interface Line {
  time: string;
  token: string | null;
  surface: string;
  mode: string;
  query?: string;
  params: Record<string, unknown>;
  results: { id: string; score: number }[];
  latency_ms: number;
  reranked: boolean;
}

/** The log's lines once it holds `n` (the writes are asynchronous: polled, not timed). */
async function linesOnce(n: number): Promise<Line[]> {
  const file = s.ws.path('logs/queries.jsonl');
  for (;;) {
    const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
    const lines = text.split('\n').filter((l) => l !== '');
    if (lines.length >= n) return lines.map((l) => JSON.parse(l) as Line);
    await sleep(10);
  }
}

const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

it(
  'REST, the web page, MCP and the CLI each log one line with ' + 'their surface, the token name, params and results',
  async () => {
    const rest = await fetch(`${s.url}/tools/search`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ query: 'fox', limit: 2, source: 'filesystem' }),
    });
    assert.equal(rest.status, 200);
    const restIds = ((await rest.json()) as { results: { id: string }[] }).results.map((r) => r.id);
    assert.ok(restIds.length > 0);
    const [restLine] = await linesOnce(1);
    assert.equal(restLine?.surface, 'rest');
    assert.equal(restLine?.token, 'default');
    assert.equal(restLine?.query, 'fox');
    assert.equal(restLine?.mode, 'keyword');
    // Every request field but mode and query, the parsed filter included (ADR 0213), so new filters are logged as they
    // come.
    assert.deepEqual(restLine?.params, {
      limit: 2,
      source: 'filesystem',
      filter: { source: ['filesystem'] },
      explain: false,
    });
    assert.deepEqual(
      restLine?.results.map((r) => r.id),
      restIds,
    );
    assert.ok(restLine?.results.every((r) => r.score > 0 && r.score <= 1));
    assert.equal(typeof restLine?.latency_ms, 'number');
    assert.equal(restLine?.reranked, false);
    assert.ok(!Number.isNaN(Date.parse(restLine?.time ?? '')));

    const web = await fetch(`${s.url}/tools/search`, {
      method: 'POST',
      headers: { ...headers, 'kbctx-surface': 'web' },
      body: JSON.stringify({ query: 'tea' }),
    });
    assert.equal(web.status, 200);
    assert.equal((await linesOnce(2))[1]?.surface, 'web');

    const client = new Client({ name: 'query-log-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      }),
    );
    const called = await client.callTool({ name: 'search', arguments: { query: 'writer commits', limit: 3 } });
    assert.notEqual(called.isError, true);
    await client.close();
    const mcpLine = (await linesOnce(3))[2];
    assert.equal(mcpLine?.surface, 'mcp');
    assert.equal(mcpLine?.token, 'default');
    assert.equal(mcpLine?.query, 'writer commits');
    assert.equal(mcpLine?.params['limit'], 3);

    const cli = await s.ws.kbctx(['search', 'green', 'tea']);
    assert.equal(cli.code, 0, cli.stderr);
    const cliLine = (await linesOnce(4))[3];
    assert.equal(cliLine?.surface, 'cli');
    assert.equal(cliLine?.token, null);
    assert.equal(cliLine?.query, 'green tea');

    assert.doesNotMatch(readFileSync(s.ws.path('logs/queries.jsonl'), 'utf8'), new RegExp(TOKEN));
  },
);
