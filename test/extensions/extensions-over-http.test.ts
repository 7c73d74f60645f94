// Compiled extensions end to end: the example module (connector type, tool, agent) plus misbehaving
// ones, synced through the real CLI, then served over REST and MCP (official SDK client) by the
// library's createHttpHandler on a real server: same validation, error table and time-outs as scripts.
import '../../registry/bundled.ts'; // the bundled plugin set (core/app/bundled-set.ts)
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createHttpHandler, openKbctx, type Kbctx, type KbctxHttpHandler } from '../../registry/index.ts';
import { REPO_ROOT, Workspace } from '../helpers/workspace.ts';
import { joinedRegExp } from '../helpers/joined-regexp.ts';

const CONFIG = `
[extensions]
modules = [
  "${REPO_ROOT}examples/extensions/tickets.mjs", "./ext/edge.mjs", "./ext/broken.mjs", "./ext/no-default.mjs",
  "./ext/takes-search.mjs",
]

[[connectors.tickets.main.tickets]]
id = "T-1"
title = "Signing key rotation"
text = "Rotate the signing keys before the audit."
closed = "2026-01-05T10:00:00Z"

[[connectors.tickets.main.tickets]]
id = "T-2"
title = "Flaky deploy"
text = "The deploy job times out on the staging runners."

[[connectors.tickets.main.tickets]]
id = ""
title = "No id"
text = "skipped"

[connectors.nobody.x]
key = 1
`;
const EDGE = `export default (kbctx) => {
  kbctx.registerTool({ name: 'slow', timeout: 0.3,
    execute: (_p, { signal }) => new Promise((_, reject) =>
      signal.addEventListener('abort', () => reject(signal.reason))) });
  kbctx.registerTool({ name: 'stubborn', timeout: 0.3, execute: () => new Promise(() => {}) });
  kbctx.registerTool({ name: 'crash', execute: () => { throw new Error('kaboom'); } });
  kbctx.registerTool({ name: 'typed', parameters: [{ name: 'n', type: 'integer', required: true }],
    execute: ({ n }) => n * 2 });
  kbctx.registerAgent({ name: 'stuck', timeout: 0.3, resolve: () => new Promise(() => {}) });
};`;

let ws: Workspace;
let kbctx: Kbctx;
let handler: KbctxHttpHandler;
let server: Server;
let url: string;
const warnings: string[] = [];

before(async () => {
  ws = new Workspace('kbctx-ext-');
  ws.config(CONFIG);
  ws.write('ext/edge.mjs', EDGE);
  ws.write('ext/broken.mjs', 'throw new Error("cannot start");\n');
  ws.write('ext/no-default.mjs', 'export const x = 1;\n');
  ws.write(
    'ext/takes-search.mjs',
    "export default (kbctx) => { kbctx.registerTool({ name: 'other', execute: () => 1 }); kbctx.registerTool({ " +
      "name: 'search', execute: () => 1 }); };\n",
  );
  kbctx = await openKbctx({ cwd: ws.dir, onWarning: (m) => warnings.push(m) });
  handler = createHttpHandler(kbctx, { log: () => undefined });
  server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  await handler.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await kbctx.close();
  ws.cleanup();
});

const post = async (path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> => {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const errorOf = (r: { body: Record<string, unknown> }): { code: string; message: string } =>
  r.body['error'] as { code: string; message: string };

describe('loading', () => {
  it('reports each module that fails with its path and error; the others load', () => {
    assert.equal(warnings.length, 3);
    assert.match(warnings[0]!, /^extension:\.\/ext\/broken\.mjs not loaded: .*ext\/broken\.mjs: cannot start$/);
    assert.match(
      warnings[1]!,
      /^extension:\.\/ext\/no-default\.mjs not loaded: .*no-default\.mjs: the default export must be a function/,
    );
    assert.match(
      warnings[2]!,
      /^extension:\.\/ext\/takes-search\.mjs not loaded: .*: registerTool\("search"\): `search` is a built-in tool$/,
    );
  });

  it('the CLI syncs an extension connector type like any other, warning about the broken modules', async () => {
    const { code, reports, stderr } = await ws.syncJson('tickets');
    assert.equal(code, 0);
    assert.deepEqual(
      reports.map((r) => [r.connector, r.upserted, r.deleted]),
      [['tickets:main', 2, 0]],
    );
    assert.match(stderr, /warning: extension:\.\/ext\/broken\.mjs not loaded: .*cannot start/);
    assert.match(stderr, /tickets:main: item 3 skipped: missing source_id/);
    const list = await ws.kbctx(['tool', 'list', '--json']);
    const names = (JSON.parse(list.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name);
    assert.ok(names.includes('ticket_url'));
    assert.ok(!names.includes('other'), 'a failed module registers nothing');
  });

  it('a configured connector type that no loaded module registers fails its sync with a config error', async () => {
    const r = await ws.kbctx(['sync', 'nobody:x']);
    assert.equal(r.code, 3);
    assert.match(
      r.stderr,
      joinedRegExp(
        /nobody:x: failed: nobody:x: no loaded plugin or extension provides the /,
        /connector type 'nobody' \(check plugins and \[extensions\] modules\)/,
      ),
    );
  });
});

describe('extensions over REST', () => {
  it('lists the tool as builtin: false with its JSON Schema, and the agent with source extension', async () => {
    const { tools } = (await (await fetch(`${url}/tools/list`)).json()) as { tools: Record<string, unknown>[] };
    assert.deepEqual(
      tools.find((t) => t['name'] === 'ticket_url'),
      {
        name: 'ticket_url',
        description: 'The web address of a ticket.',
        builtin: false,
        parameters: {
          type: 'object',
          properties: { id: { type: 'string', description: 'Ticket id, e.g. T-1' } },
          required: ['id'],
        },
      },
    );
    const { agents } = (await (await fetch(`${url}/agents/list`)).json()) as { agents: Record<string, unknown>[] };
    const brief = agents.find((a) => a['name'] === 'ticket_brief');
    assert.equal(brief?.['source'], 'extension');
    assert.deepEqual(brief?.['tools'], ['search', 'ticket_url']);
  });

  it(
    'runs the tool, with the error table: 400 invalid ' + 'parameters, 404 from the tool, 408 time-out, 500 crash',
    async () => {
      assert.deepEqual(await post('/tools/ticket_url', { id: 'T-2' }), {
        status: 200,
        body: { result: { url: 'https://tickets.example/T-2' } },
      });
      const missing = await post('/tools/ticket_url', {});
      assert.deepEqual([missing.status, errorOf(missing).message], [400, "missing required parameter 'id'"]);
      const wrongType = await post('/tools/typed', { n: 1.5 });
      assert.deepEqual([wrongType.status, errorOf(wrongType).code], [400, 'bad_request']);
      assert.deepEqual(await post('/tools/typed', { n: 4 }), { status: 200, body: { result: 8 } });
      const unknown = await post('/tools/ticket_url', { id: 'nope' });
      assert.deepEqual([unknown.status, errorOf(unknown)], [404, { code: 'not_found', message: 'no ticket nope' }]);
      for (const name of ['slow', 'stubborn']) {
        const r = await post(`/tools/${name}`, {});
        assert.deepEqual(
          [r.status, errorOf(r)],
          [408, { code: 'timeout', message: `tool:${name} timed out after 0.3 s` }],
        );
      }
      const crash = await post('/tools/crash', {});
      assert.deepEqual(
        [crash.status, errorOf(crash)],
        [500, { code: 'script_error', message: 'tool:crash failed: kaboom' }],
      );
    },
  );

  it('searches the connector documents and resolves the agent from them', async () => {
    const search = await post('/tools/search', { query: 'signing keys', source: 'tickets:main' });
    const results = (search.body['results'] ?? []) as Record<string, unknown>[];
    assert.equal(results[0]?.['title'], 'Signing key rotation');
    assert.equal(results[0]?.['source_url'], 'https://tickets.example/T-1');
    const prompt = await post('/agents/ticket_brief/prompt', { topic: 'deploy' });
    assert.equal(prompt.status, 200);
    assert.match(String(prompt.body['system']), /^Brief the user on deploy\. Related tickets: Flaky deploy/);
    const noTopic = await post('/agents/ticket_brief/prompt', {});
    assert.deepEqual([noTopic.status, errorOf(noTopic).code], [400, 'bad_request']);
    const stuck = await post('/agents/stuck/prompt', {});
    assert.deepEqual([stuck.status, errorOf(stuck).code], [408, 'timeout']);
  });
});

describe('extensions over MCP', () => {
  let client: Client;
  before(async () => {
    client = new Client({ name: 'kbctx-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
  });
  after(async () => client.close());

  it('tools/list and tools/call: result, invalid parameters and time-out as isError results', async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === 'ticket_url');
    assert.deepEqual(tool?.inputSchema['required'], ['id']);
    assert.equal(tool?.annotations?.readOnlyHint, true);
    const ok = await client.callTool({ name: 'ticket_url', arguments: { id: 'T-1' } });
    assert.notEqual(ok.isError, true);
    assert.deepEqual(ok.structuredContent, { url: 'https://tickets.example/T-1' });
    const text = (r: { content: unknown }): string => (r.content as { text: string }[])[0]!.text;
    const bad = await client.callTool({ name: 'ticket_url', arguments: {} });
    assert.equal(bad.isError, true);
    assert.match(text(bad), /bad_request: missing required parameter 'id'/);
    const slow = await client.callTool({ name: 'slow', arguments: {} });
    assert.equal(slow.isError, true);
    assert.match(text(slow), /timeout: tool:slow timed out after 0\.3 s/);
  });

  it('prompts/get resolves the agent; a missing argument is an error', async () => {
    const prompt = await client.getPrompt({ name: 'ticket_brief', arguments: { topic: 'signing keys' } });
    const texts = prompt.messages.map((m) => (m.content as { text: string }).text);
    assert.match(texts[0]!, /Related tickets: Signing key rotation/);
    assert.equal(texts.at(-1), 'What is the state of signing keys?');
    await assert.rejects(
      client.getPrompt({ name: 'ticket_brief', arguments: {} }),
      /missing required argument 'topic'/,
    );
  });
});
