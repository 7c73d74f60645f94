// Context Harness clients over REST and MCP: `filters: {source, since}` in search, `since` as a date
// or a duration, and unknown parameters rejected by name (400 / isError), never silently dropped.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
let client: Client;
before(async () => {
  s = await startTestServer('[connectors.filesystem.extra]\nroot = "docs/notes"\n');
  client = new Client({ name: 'ctx-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`)));
});
after(async () => {
  await client.close();
  await s.close();
});

const search = (body: unknown): Promise<Response> =>
  fetch(`${s.url}/tools/search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const sourcesOf = async (res: Response): Promise<string[]> =>
  ((await res.json()) as { results: { source: string }[] }).results.map((r) => r.source);

describe('REST search, Context Harness style', () => {
  it('accepts filters {source, since}', async () => {
    const all = await search({ query: 'green tea', filters: { since: '30d' } });
    assert.equal(all.status, 200);
    assert.ok((await sourcesOf(all)).length >= 2);
    const one = await search({
      query: 'green tea',
      mode: 'keyword',
      limit: 12,
      filters: { source: 'filesystem:docs', since: '2000-01-01' },
    });
    assert.equal(one.status, 200);
    assert.ok((await sourcesOf(one)).every((x) => x === 'filesystem:docs'));
  });

  it('since in the future leaves nothing', async () => {
    const res = await search({ query: 'green tea', since: '2999-01-01' });
    assert.deepEqual(await sourcesOf(res), []);
  });

  it('an unknown parameter or filter is a 400 naming it', async () => {
    for (const [body, name] of [
      [{ query: 'fox', top_k: 3 }, 'top_k'],
      [{ query: 'fox', filters: { owner: 'me' } }, 'filters.owner'],
      [{ query: 'fox', since: 'last tuesday' }, 'since'],
    ] as const) {
      const res = await search(body);
      assert.equal(res.status, 400);
      const { error } = (await res.json()) as { error: { code: string; message: string } };
      assert.equal(error.code, 'bad_request');
      assert.ok(error.message.includes(`'${name}'`), error.message);
    }
  });

  it('get and sources reject unknown parameters too; sources carry Context Harness fields', async () => {
    const res = await fetch(`${s.url}/tools/get`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'x', verbose: true }),
    });
    assert.equal(res.status, 400);
    const { sources } = (await (await fetch(`${s.url}/tools/sources`)).json()) as {
      sources: Record<string, unknown>[];
    };
    assert.deepEqual(
      Object.keys(sources[0]!)
        .filter((k) => ['name', 'configured', 'healthy'].includes(k))
        .sort(),
      ['configured', 'healthy', 'name'],
    );
  });
});

describe('MCP search, Context Harness style', () => {
  it('tools/list documents filters and since', async () => {
    const { tools } = await client.listTools();
    const props = tools.find((t) => t.name === 'search')?.inputSchema['properties'] as Record<
      string,
      { properties?: Record<string, unknown> }
    >;
    assert.ok(props['since']);
    // Context Harness's two first, then kbctx's own (ADR 0213).
    assert.deepEqual(Object.keys(props['filters']?.properties ?? {}).slice(0, 2), ['source', 'since']);
  });

  it('applies filters {source, since}', async () => {
    const r = await client.callTool({
      name: 'search',
      arguments: { query: 'green tea', filters: { source: 'filesystem:extra', since: '7d' } },
    });
    assert.ok(!r.isError);
    const results = (r.structuredContent as { results: { source: string }[] }).results;
    assert.ok(results.length > 0 && results.every((x) => x.source === 'filesystem:extra'));
  });

  it('an unknown argument is an isError result naming it', async () => {
    const r = await client.callTool({ name: 'search', arguments: { query: 'fox', top_k: 3 } });
    assert.equal(r.isError, true);
    assert.match((r.content as { text: string }[])[0]?.text ?? '', /unknown parameter 'top_k'/);
  });
});
