// A plugin tool's JSON Schema is checked as a whole (issue 23): nested objects, arrays with item
// patterns, bounds and a nested `required`, by ajv, the same way on REST (400), MCP (-32602, or an
// isError result) and the CLI (`tool call`, exit 2), each error naming the path.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { spawnServer, type KbctxServer } from '../helpers/kbctx-server.ts';
import { runKbctx, Workspace } from '../helpers/workspace.ts';

const PLUGIN = `export default {
  name: 'tagger', version: '1.0.0', kbctx: '^0.2',
  apply(kernel) {
    kernel.hooks.tools.tap('tagger', (tools) => tools.add({
      name: 'tag', description: 'tags a document',
      inputSchema: {
        type: 'object',
        required: ['tags', 'target'],
        properties: {
          tags: { type: 'array', items: { type: 'string', pattern: '^[a-z]+$' }, minItems: 1 },
          target: { type: 'object', required: ['id'], properties: { id: { type: 'string', minLength: 3 }, weight: {
            type: 'number', minimum: 0, maximum: 1 } } },
        },
      },
      call: async (params) => ({ tagged: params.target.id, tags: params.tags }),
    }));
  },
};
`;

let ws: Workspace;
let server: KbctxServer;
before(async () => {
  ws = new Workspace();
  ws.write('kbctx.toml', 'plugins = ["bundled", "./tagger.mjs"]\n[db]\npath = "data/kb.sqlite"\n');
  ws.write('tagger.mjs', PLUGIN);
  server = await spawnServer(ws, ['-c', 'kbctx.toml', 'serve', 'mcp', '--bind', '127.0.0.1:0', '--no-watch']);
});
after(async () => {
  await server.stop();
  ws.cleanup();
});

const post = (body: unknown) =>
  fetch(`${server.url}/tools/tag`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('a plugin tool with a nested JSON Schema', () => {
  it('REST: a valid call answers 200; each nested fault is a 400 naming its path', async () => {
    const ok = await post({ tags: ['docs'], target: { id: 'doc-1', weight: 0.5 } });
    assert.equal(ok.status, 200);
    assert.deepEqual(await ok.json(), { result: { tagged: 'doc-1', tags: ['docs'] } });
    const cases: [unknown, RegExp][] = [
      [{ tags: ['Docs'], target: { id: 'doc-1' } }, /tags\/0.*must match pattern/],
      [{ tags: ['docs'], target: { weight: 0.5 } }, /missing required parameter 'target\/id'/],
      [{ tags: ['docs'], target: { id: 'd' } }, /target\/id.*must NOT have fewer than 3 characters/],
      [{ tags: ['docs'], target: { id: 'doc-1', weight: 2 } }, /target\/weight.*must be <= 1/],
      [{ tags: [], target: { id: 'doc-1' } }, /tags.*must NOT have fewer than 1 items/],
    ];
    for (const [body, message] of cases) {
      const r = await post(body);
      assert.equal(r.status, 400, JSON.stringify(body));
      const error = ((await r.json()) as { error: { code: string; message: string } }).error;
      assert.equal(error.code, 'bad_request');
      assert.match(error.message, message);
    }
  });

  it('MCP: the same fault is an invalid-params error naming the path, not an internal error', async () => {
    const client = new Client({ name: 'schema-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    try {
      const good = await client.callTool({ name: 'tag', arguments: { tags: ['docs'], target: { id: 'doc-1' } } });
      assert.notEqual(good.isError, true);
      const bad = await client.callTool({ name: 'tag', arguments: { tags: ['Docs'], target: { id: 'doc-1' } } }).then(
        (result) => ({
          text: JSON.stringify(result.content),
          isError: result.isError === true,
          code: undefined as number | undefined,
        }),
        (error: { code?: number; message: string }) => ({ text: error.message, isError: true, code: error.code }),
      );
      assert.equal(bad.isError, true);
      if (bad.code !== undefined) assert.equal(bad.code, -32602);
      assert.match(bad.text, /tags\/0.*must match pattern/);
    } finally {
      await client.close();
    }
  });

  it('CLI: `kbctx tool call` checks the same schema (exit 2 naming the path)', async () => {
    const bad = await runKbctx(
      ['-c', 'kbctx.toml', 'tool', 'call', 'tag', '--param', 'tags=["docs"]', '--param', 'target={"id":"d"}'],
      { cwd: ws.dir },
    );
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /target\/id.*must NOT have fewer than 3 characters/);
    const good = await runKbctx(
      ['-c', 'kbctx.toml', 'tool', 'call', 'tag', '--param', 'tags=["docs"]', '--param', 'target={"id":"doc-1"}'],
      { cwd: ws.dir },
    );
    assert.equal(good.code, 0, good.stderr);
    assert.match(good.stdout, /"tagged": "doc-1"/);
  });
});
