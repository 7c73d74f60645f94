// The transport plugins (transport-http, rest, mcp-http, web, mcp-stdio, and mcp-server, the MCP server
// both MCP transports need) dropped one at a time, over
// real HTTP: `kbctx serve mcp --bind 127.0.0.1:0` serves exactly what the loaded plugins provide.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { BASE_CONFIG, DOCS } from '../helpers/server.ts';
import { spawnServer, type KbctxServer } from '../helpers/kbctx-server.ts';
import { runKbctx, Workspace } from '../helpers/workspace.ts';

const LISTENING = /Listening on (http:\/\/\S+)\n/;

let ws: Workspace;
before(async () => {
  ws = new Workspace('kbctx-transports-');
  for (const [file, text] of Object.entries(DOCS)) ws.write(file, text);
  ws.config(BASE_CONFIG);
  assert.equal((await ws.kbctx(['sync', 'all'])).code, 0);
});
after(() => ws.cleanup());

/** `kbctx serve mcp` with the bundled plugins minus `dropped` (one name, or several); waits for `ready`. */
function serveWithout(dropped: string | string[], ready?: RegExp): Promise<KbctxServer> {
  const drops = [dropped]
    .flat()
    .map((name) => `, "!${name}"`)
    .join('');
  ws.write('drop.toml', `plugins = ["bundled"${drops}]\n${BASE_CONFIG}`);
  return spawnServer(ws, ['-c', 'drop.toml', 'serve', 'mcp', '--bind', '127.0.0.1:0', '--no-watch'], {}, ready);
}

const search = (url: string): Promise<Response> =>
  fetch(`${url}/tools/search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"query":"foxes"}',
  });

async function mcpTools(url: string): Promise<string[]> {
  const client = new Client({ name: 'transports-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
  try {
    return (await client.listTools()).tools.map((t) => t.name);
  } finally {
    await client.close();
  }
}

describe('dropping a transport plugin', () => {
  it('"!web": no page (404 at /), REST and MCP still served', async () => {
    const s = await serveWithout('web');
    try {
      assert.equal((await fetch(`${s.url}/`)).status, 404);
      assert.equal((await fetch(`${s.url}/web/info`)).status, 404);
      assert.equal((await search(s.url)).status, 200);
      assert.ok((await mcpTools(s.url)).includes('search'));
      assert.doesNotMatch(s.stdout, /Web page:/);
    } finally {
      assert.equal(await s.stop(), 0);
    }
  });

  it('"!rest": MCP and the page still served, no /tools or /agents routes (404)', async () => {
    const s = await serveWithout('rest');
    try {
      assert.equal((await search(s.url)).status, 404);
      assert.equal((await fetch(`${s.url}/tools/list`)).status, 404);
      assert.equal((await fetch(`${s.url}/agents/list`)).status, 404);
      assert.equal((await fetch(`${s.url}/health`)).status, 200);
      assert.equal((await fetch(`${s.url}/`)).status, 200);
      assert.ok((await mcpTools(s.url)).includes('search'));
      assert.doesNotMatch(s.stdout, /\/tools\//);
    } finally {
      assert.equal(await s.stop(), 0);
    }
  });

  it('"!mcp-http": REST only, /mcp is 404 and the banner names no MCP endpoint', async () => {
    const s = await serveWithout('mcp-http', LISTENING);
    try {
      assert.equal((await search(s.url)).status, 200);
      const mcp = await fetch(`${s.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      });
      assert.equal(mcp.status, 404);
      assert.match(s.stdout, /^POST \/tools\/search {2}/m);
      assert.doesNotMatch(s.stdout, /MCP endpoint/);
    } finally {
      assert.equal(await s.stop(), 0);
    }
  });

  it('"!transport-http": serve mcp is a config error naming the plugin (exit 3)', async () => {
    ws.write('drop.toml', `plugins = ["bundled", "!transport-http"]\n${BASE_CONFIG}`);
    const r = await runKbctx(['-c', 'drop.toml', 'serve', 'mcp', '--bind', '127.0.0.1:0'], { cwd: ws.dir });
    assert.equal(r.code, 3);
    assert.match(r.stderr, /the mcp transport is provided by the plugin transport-http, which is not loaded/);
  });

  it('"!mcp-server" alone: a config error naming the MCP transport that needs it (exit 3)', async () => {
    ws.write('drop.toml', `plugins = ["bundled", "!mcp-server"]\n${BASE_CONFIG}`);
    const r = await runKbctx(['-c', 'drop.toml', 'serve', 'mcp', '--bind', '127.0.0.1:0'], { cwd: ws.dir });
    assert.equal(r.code, 3);
    assert.match(r.stderr, /plugin 'mcp-http' needs 'mcp-server', which is dropped from plugins/);
  });

  it('"!mcp-server" with both MCP transports: REST only, no /mcp and no MCP endpoint in the banner', async () => {
    const s = await serveWithout(['mcp-server', 'mcp-http', 'mcp-stdio'], LISTENING);
    try {
      assert.equal((await search(s.url)).status, 200);
      const mcp = await fetch(`${s.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      });
      assert.equal(mcp.status, 404);
      assert.doesNotMatch(s.stdout, /MCP endpoint/);
    } finally {
      assert.equal(await s.stop(), 0);
    }
  });

  it('"!mcp-stdio": serve stdio is a config error naming the plugin (exit 3)', async () => {
    ws.write('drop.toml', `plugins = ["bundled", "!mcp-stdio"]\n${BASE_CONFIG}`);
    const r = await runKbctx(['-c', 'drop.toml', 'serve', 'stdio'], { cwd: ws.dir });
    assert.equal(r.code, 3);
    assert.match(r.stderr, /the stdio transport is provided by the plugin mcp-stdio, which is not loaded/);
  });
});

it('kbctx plugins lists the transport plugins with the hooks they tap', async () => {
  const r = await runKbctx(['plugins', '--json'], { cwd: ws.dir });
  assert.equal(r.code, 0, r.stderr);
  const { plugins } = JSON.parse(r.stdout) as { plugins: { name: string; hooks: string[]; provides: string[] }[] };
  const hooks = (name: string): string[] | undefined => plugins.find((p) => p.name === name)?.hooks;
  // `commands` and `doctor`: `kbctx token hash` and the tokens' doctor lines (ADR 0223).
  assert.deepEqual(hooks('transport-http'), [
    'createTransport.for("mcp")',
    'createTransport.for("http-handler")',
    'commands',
    'doctor',
  ]);
  assert.deepEqual(hooks('mcp-stdio'), ['createTransport.for("stdio")']);
  for (const name of ['rest', 'mcp-http', 'web']) assert.deepEqual(hooks(name), ['httpRoutes']);
  const mcpServer = plugins.find((p) => p.name === 'mcp-server');
  assert.deepEqual(mcpServer?.provides, ['service:kbctx.mcp-server'], 'the MCP server both MCP transports use');
});
