// `kbctx serve stdio --attach <url>` (ADR 0218) against a real `kbctx serve mcp` on 127.0.0.1, driven by the
// official SDK client over stdio: the relay, ten bridges on one server, a server that goes away and comes
// back, and a refused token.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { spawnServer, type KbctxServer } from '../../helpers/kbctx-server.ts';
import { BASE_CONFIG, DOCS } from '../../helpers/server.ts';
import { KBCTX_BIN, Workspace } from '../../helpers/workspace.ts';

const TOKEN = 'attach-test-token-0123456789abcdef';
let ws: Workspace;
let server: KbctxServer;

before(async () => {
  ws = new Workspace('kbctx-attach-');
  for (const [file, text] of Object.entries(DOCS)) ws.write(file, text);
  ws.config(`[server]\nauth_token_env = "ATTACH_TEST_TOKEN"\n${BASE_CONFIG}`);
  assert.equal((await ws.kbctx(['sync', 'all'])).code, 0);
  server = await startServer('127.0.0.1:0');
});
after(async () => {
  await server.stop();
  ws.cleanup();
});

const startServer = (bind: string): Promise<KbctxServer> =>
  spawnServer(ws, ['serve', 'mcp', '--bind', bind, '--no-watch'], { ATTACH_TEST_TOKEN: TOKEN });

/** An SDK client whose transport spawns the bridge; the bridge's stderr is kept for assertions. */
function bridgeClient(url: string, env: Record<string, string> = { KBCTX_TOKEN: TOKEN }, args: string[] = []) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [KBCTX_BIN, 'serve', 'stdio', '--attach', url, ...args],
    cwd: ws.dir,
    // No config on purpose: the bridge reads none.
    env: { PATH: process.env['PATH'] ?? '', KBCTX_CONFIG: '/nonexistent/kbctx.toml', ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const client = new Client({ name: 'kbctx-attach-test', version: '1.0.0' });
  return { client, transport, stderr: () => stderr };
}

const sourceIdsOf = (result: unknown): string[] =>
  ((result as { structuredContent: { results: { source_id: string }[] } }).structuredContent.results ?? []).map(
    (r) => r.source_id,
  );

it('relays tools/list and a search call to the running server', async () => {
  const { client, transport } = bridgeClient(`${server.url}/mcp`);
  await client.connect(transport);
  try {
    assert.deepEqual(
      (await client.listTools()).tools.map((t) => t.name),
      ['search', 'get', 'sources'],
    );
    const result = await client.callTool({ name: 'search', arguments: { query: 'write-ahead logging' } });
    assert.equal(sourceIdsOf(result)[0], 'sqlite.md');
    assert.deepEqual(
      (await client.listPrompts()).prompts.map((p) => p.name),
      ['helper'],
    );
  } finally {
    await client.close();
  }
});

it('negotiates 2026-07-28 through the bridge (per-request headers derived from the envelope)', async () => {
  const { transport } = bridgeClient(server.url); // a bare origin means its /mcp endpoint
  const client = new Client(
    { name: 'kbctx-attach-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(transport);
  try {
    assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
    const result = await client.callTool({ name: 'search', arguments: { query: 'foxes dens' } });
    assert.equal(sourceIdsOf(result)[0], 'fox.md');
  } finally {
    await client.close();
  }
});

it('ten bridges share one server', async () => {
  const bridges = Array.from({ length: 10 }, () => bridgeClient(`${server.url}/mcp`));
  await Promise.all(bridges.map((b) => b.client.connect(b.transport)));
  try {
    const answers = await Promise.all(
      bridges.map((b) => b.client.callTool({ name: 'search', arguments: { query: 'green tea brewed' } })),
    );
    for (const result of answers) assert.equal(sourceIdsOf(result)[0], 'notes/tea.txt');
  } finally {
    await Promise.all(bridges.map((b) => b.client.close()));
  }
});

it('answers with an error naming the URL while the server is down, and works again once it is back', async () => {
  const port = new URL(server.url).port;
  const { client, transport, stderr } = bridgeClient(`${server.url}/mcp`);
  await client.connect(transport);
  try {
    await server.stop();
    await assert.rejects(client.listTools(), (error: Error) => {
      assert.match(error.message, new RegExp(`kbctx server at http://127\\.0\\.0\\.1:${port}/mcp is not reachable`));
      return true;
    });
    assert.match(stderr(), /not reachable/);
    server = await startServer(`127.0.0.1:${port}`);
    const result = await client.callTool({ name: 'search', arguments: { query: 'write-ahead logging' } });
    assert.equal(sourceIdsOf(result)[0], 'sqlite.md');
  } finally {
    await client.close();
  }
});

it('a refused token is a clear error naming the variable', async () => {
  const { client, transport } = bridgeClient(`${server.url}/mcp`, { WRONG_TOKEN: 'not-the-token' }, [
    '--token-env',
    'WRONG_TOKEN',
  ]);
  await assert.rejects(client.connect(transport), (error: Error) => {
    assert.match(error.message, /refused the token \(401\): check the value of WRONG_TOKEN/);
    return true;
  });
  await client.close();
});

it('usage mistakes exit 2 before anything connects', async () => {
  const notUrl = await ws.kbctx(['serve', 'stdio', '--attach', 'not a url']);
  assert.equal(notUrl.code, 2);
  assert.match(notUrl.stderr, /"not a url" is not a URL/);
  const unset = await ws.kbctx(['serve', 'stdio', '--attach', server.url, '--token-env', 'UNSET_VARIABLE_X']);
  assert.equal(unset.code, 2);
  assert.match(unset.stderr, /UNSET_VARIABLE_X, but that environment variable is not set/);
  const help = await ws.kbctx(['serve', 'stdio', '--help']);
  assert.match(help.stdout, /--attach <url>/);
});

// The web page's "Connect an agent" block for the bridge (plain JS outside this tsconfig: typed here).
type AttachEntry = { command: string; args: string[]; env?: Record<string, string> };
const { clientConfigs } = (await import(
  new URL('../../../plugins/web/client/lib/client-configs.js', import.meta.url).href
)) as {
  clientConfigs(v: {
    mcpUrl: string;
    token: string | null;
    tokenEnv: string;
    kbctxBin: string;
    configFile: string | null;
  }): { client: string; attach: { text: string } }[];
};

it("the web page's Claude Desktop attach configuration runs as written (token in env, not in args)", async () => {
  const configs = clientConfigs({
    mcpUrl: `${server.url}/mcp`,
    token: TOKEN,
    tokenEnv: 'ATTACH_TEST_TOKEN',
    kbctxBin: KBCTX_BIN,
    configFile: null,
  });
  const desktop = configs.find((c) => c.client === 'Claude Desktop')!;
  const entry = (JSON.parse(desktop.attach.text) as { mcpServers: { kbctx: AttachEntry } }).mcpServers.kbctx;
  assert.ok(!entry.args.includes(TOKEN), 'the token is not an argument');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [entry.command, ...entry.args],
    cwd: ws.dir,
    env: { PATH: process.env['PATH'] ?? '', ...entry.env },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'kbctx-attach-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    const result = await client.callTool({ name: 'search', arguments: { query: 'foxes dens' } });
    assert.equal(sourceIdsOf(result)[0], 'fox.md');
  } finally {
    await client.close();
  }
});
