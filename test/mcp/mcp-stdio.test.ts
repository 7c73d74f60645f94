// `kbctx serve mcp --stdio` spawned as a real subprocess with a temp config, driven by the official
// SDK client over stdio (both the 2025 handshake and 2026-07-28 negotiation).
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { BASE_CONFIG, DOCS } from '../helpers/server.ts';
import { KBCTX_BIN, Workspace } from '../helpers/workspace.ts';

let ws: Workspace;
before(async () => {
  ws = new Workspace('kbctx-stdio-');
  for (const [file, text] of Object.entries(DOCS)) ws.write(file, text);
  ws.config(BASE_CONFIG);
  assert.equal((await ws.kbctx(['sync', 'all'])).code, 0);
});
after(() => ws.cleanup());

const transport = (): StdioClientTransport =>
  new StdioClientTransport({
    command: process.execPath,
    args: [KBCTX_BIN, 'serve', 'mcp', '--stdio'],
    cwd: ws.dir,
    env: { PATH: process.env['PATH'] ?? '', KBCTX_CONFIG: '' },
    stderr: 'pipe',
  });

it('serves tools, prompts and resources over stdio (2025 handshake)', async () => {
  const client = new Client({ name: 'kbctx-stdio-test', version: '1.0.0' });
  await client.connect(transport());
  try {
    assert.deepEqual(
      (await client.listTools()).tools.map((t) => t.name),
      ['search', 'get', 'sources'],
    );
    const result = await client.callTool({ name: 'search', arguments: { query: 'write-ahead logging' } });
    const { results } = result.structuredContent as { results: { source_id: string }[] };
    assert.equal(results[0]?.source_id, 'sqlite.md');
    assert.deepEqual(
      (await client.listPrompts()).prompts.map((p) => p.name),
      ['helper'],
    );
  } finally {
    await client.close();
  }
});

it('negotiates 2026-07-28 over stdio', async () => {
  const client = new Client(
    { name: 'kbctx-stdio-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(transport());
  try {
    assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
    const result = await client.callTool({ name: 'sources', arguments: {} });
    assert.deepEqual(
      (result.structuredContent as { sources: { source: string }[] }).sources.map((x) => x.source),
      ['filesystem:docs'],
    );
  } finally {
    await client.close();
  }
});
