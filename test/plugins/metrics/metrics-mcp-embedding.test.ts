// The metrics plugin's gauges of the MCP endpoint and background embedding, over a real `kbctx serve mcp`
// (127.0.0.1, port 0): the official SDK client opens listen streams and holds a tool call open, and the
// gauges follow; a sync whose chunks the server embeds (an OpenAI-compatible provider started here) moves
// the embedded-chunks counter by those chunks. Scrapes are parsed; waits are conditions, never sleeps.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startHashingProvider, type HashingProvider } from '../../helpers/hashing-provider.ts';
import { spawnServer, type KbctxServer } from '../../helpers/kbctx-server.ts';
import { eventually } from '../../helpers/live-server.ts';
import { Workspace } from '../../helpers/workspace.ts';
import { parsePrometheusText, sampleSum, type Sample } from './prometheus-text.ts';

const TOKEN = 'metrics-mcp-token';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const CONNECTOR = 'filesystem:docs';
const MODEL = 'openai:m';

// A tool that answers when `release` is called: an MCP request the test holds open.
const HOLD_PLUGIN = `let release = () => {};
export default { name: 'hold', version: '1.0.0', kbctx: '^0.2', apply(kernel) {
  kernel.hooks.tools.tap('hold', (tools) => {
    tools.add({ name: 'hold', description: 'Answers once released.',
      call: () => new Promise((r) => (release = () => r('released'))) });
    tools.add({ name: 'release', description: 'Releases hold.', call: () => { release(); return 'ok'; } });
  });
} };\n`;

const ws = new Workspace('kbctx-metrics-mcp-');
let provider: HashingProvider;
let s: KbctxServer;
const clients: Client[] = [];

before(async () => {
  provider = await startHashingProvider(32);
  const base = provider.baseUrl;
  ws.write('docs/fox.md', '# Foxes\n\nThe quick brown fox lives in a den.\n');
  ws.write('docs/dog.md', '# Dogs\n\nThe lazy dog sleeps all day.\n');
  ws.write('hold-plugin.mjs', HOLD_PLUGIN);
  ws.config(
    `plugins = ["bundled", "./hold-plugin.mjs"]\n\n[embedding]\nprovider = "openai"\nbase_url = "${base}"\nmodel ` +
      `= "m"\ndims = 32\nmax_retries = 0\n\n` +
      `[connectors.filesystem.docs]\nroot = "docs"\n\n[sync]\ninterval = "off"\n\n[server]\nauth_token_env = ` +
      `"KBCTX_TEST_TOKEN"\nwatch = false\n`,
  );
  s = await spawnServer(
    ws,
    ['serve', 'mcp', '--bind', '127.0.0.1:0'],
    { KBCTX_TEST_TOKEN: TOKEN, OPENAI_API_KEY: 'test' },
    /Listening on (http:\/\/\S+)\n/,
  );
});

after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  assert.equal(await s.stop(), 0);
  await provider.close();
  ws.cleanup();
});

async function scrape(): Promise<Sample[]> {
  const res = await fetch(`${s.url}/metrics`, { headers: AUTH });
  assert.equal(res.status, 200);
  return parsePrometheusText(await res.text());
}

/** Resolves once a scrape's value of `name` is `value` (the gauges move when the server has seen the change). */
const gaugeBecomes = (name: string, value: number): Promise<Sample[]> =>
  eventually(async () => {
    const samples = await scrape();
    return sampleSum(samples, name) === value ? samples : undefined;
  }, `${name} = ${value}`);

async function connect(): Promise<Client> {
  const client = new Client(
    { name: 'kbctx-metrics-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: AUTH } }));
  clients.push(client);
  return client;
}

describe('open MCP exchanges', () => {
  it('listen streams: the gauge counts those open and falls when one closes', async () => {
    const idle = await scrape();
    assert.equal(sampleSum(idle, 'kbctx_mcp_listen_streams'), 0);
    assert.equal(sampleSum(idle, 'kbctx_mcp_open_requests'), 0);
    const [a, b] = [await connect(), await connect()];
    const first = await a.listen({ resourcesListChanged: true });
    await b.listen({ resourcesListChanged: true });
    await b.listen({ resourcesListChanged: true });
    // Acknowledged streams were counted before the acknowledgement was written.
    assert.equal(sampleSum(await scrape(), 'kbctx_mcp_listen_streams'), 3);
    await first.close();
    await gaugeBecomes('kbctx_mcp_listen_streams', 2);
    await b.close();
    const after = await gaugeBecomes('kbctx_mcp_listen_streams', 0);
    assert.equal(sampleSum(after, 'kbctx_mcp_open_requests'), 0, 'listen streams are not counted as requests');
  });

  it('requests: a tool call held open is counted until it answers', async () => {
    const client = await connect();
    const held = client.callTool({ name: 'hold', arguments: {} });
    await gaugeBecomes('kbctx_mcp_open_requests', 1);
    await client.callTool({ name: 'release', arguments: {} });
    const result = await held;
    assert.equal((result.content as { text: string }[])[0]?.text, '"released"');
    await gaugeBecomes('kbctx_mcp_open_requests', 0);
  });
});

describe('background embedding', () => {
  const chunksOf = (samples: Sample[], name: string) => sampleSum(samples, name, { source: CONNECTOR });
  /** A scrape once every chunk in the index has its embedding and no pass is under way. */
  const settled = (): Promise<Sample[]> =>
    eventually(async () => {
      const samples = await scrape();
      const chunks = chunksOf(samples, 'kbctx_index_chunks');
      const done = chunks > 0 && chunksOf(samples, 'kbctx_index_embedded_chunks') === chunks;
      return done && sampleSum(samples, 'kbctx_embedding_queue_chunks') === 0 ? samples : undefined;
    }, 'every chunk embedded');

  it('a sync whose chunks the server embeds moves the embedded-chunks counter by those chunks', async () => {
    const before = await settled();
    const counted = sampleSum(before, 'kbctx_embedded_chunks_total', { model: MODEL });
    ws.write('docs/heron.md', '# Herons\n\nA heron waits by the river.\n\n## Fishing\n\nIt strikes fast.\n');
    const trigger = await fetch(`${s.url}/sync/${CONNECTOR}`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(trigger.status, 200);
    const later = await eventually(async () => {
      const samples = await settled();
      return chunksOf(samples, 'kbctx_index_chunks') > chunksOf(before, 'kbctx_index_chunks') ? samples : undefined;
    }, 'the new document indexed and embedded');
    const added = chunksOf(later, 'kbctx_index_chunks') - chunksOf(before, 'kbctx_index_chunks');
    const embedded = await eventually(async () => {
      const now = sampleSum(await scrape(), 'kbctx_embedded_chunks_total', { model: MODEL });
      return now - counted >= added ? now : undefined;
    }, 'the counter to reach the new chunks');
    assert.equal(embedded - counted, added);
  });
});
