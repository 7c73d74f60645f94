// `kbctx serve mcp` and `kbctx start` as real processes: the start-up lines, serving while another
// process syncs into the same index (WAL), and a clean exit on SIGTERM.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { BASE_CONFIG, DOCS } from '../helpers/server.ts';
import { spawnServer } from '../helpers/kbctx-server.ts';
import { Workspace } from '../helpers/workspace.ts';

let ws: Workspace;
before(async () => {
  ws = new Workspace('kbctx-serve-');
  for (const [file, text] of Object.entries(DOCS)) ws.write(file, text);
  for (let i = 0; i < 1500; i++)
    ws.write(`docs/bulk/doc-${i}.md`, `# Bulk ${i}\n\nParagraph ${i} about foxes, tea and write-ahead logs.\n`);
  ws.config(`${BASE_CONFIG}\n[server]\nbind = "127.0.0.1:0"\n`);
  assert.equal((await ws.kbctx(['sync', 'all'])).code, 0);
});
after(() => ws.cleanup());

it('serve mcp prints one line per tool, the address and the MCP endpoint; exits 0 on SIGTERM', async () => {
  const s = await spawnServer(ws, ['serve', 'mcp', '--bind', '127.0.0.1:0']);
  const lines = s.stdout.trim().split('\n');
  assert.match(lines[0]!, /^POST \/tools\/search {2}Search the knowledge base/);
  assert.match(lines[1]!, /^POST \/tools\/get {2}/);
  assert.match(lines[2]!, /^GET \/tools\/sources {2}/);
  assert.match(lines[3]!, /^Listening on http:\/\/127\.0\.0\.1:\d+$/);
  assert.equal(lines[4], `MCP endpoint: ${s.url}/mcp`);
  assert.equal((await fetch(`${s.url}/health`)).status, 200);
  s.child.kill('SIGTERM');
  assert.equal(await s.exit, 0);
});

it('keeps answering searches while another process runs a full sync', async () => {
  const s = await spawnServer(ws, ['serve', 'mcp', '--bind', '127.0.0.1:0']);
  try {
    const sync = ws.kbctx(['sync', 'all', '--full']);
    let done = false;
    void sync.finally(() => (done = true));
    const statuses: number[] = [];
    while (!done) {
      const res = await fetch(`${s.url}/tools/search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"query":"foxes tea"}',
      });
      statuses.push(res.status);
      await res.arrayBuffer();
    }
    assert.equal((await sync).code, 0);
    assert.ok(statuses.length > 0);
    assert.deepEqual([...new Set(statuses)], [200]);
  } finally {
    s.child.kill('SIGTERM');
    await s.exit;
  }
});

it('start syncs, then serves', async () => {
  const s = await spawnServer(ws, ['start']);
  try {
    const body = (await (await fetch(`${s.url}/tools/sources`)).json()) as { sources: { document_count: number }[] };
    assert.equal(body.sources[0]?.document_count, 1503);
  } finally {
    s.child.kill('SIGINT');
    assert.equal(await s.exit, 0);
  }
});

it('serves from several worker processes on one port, prints the start-up lines once, exits 0 on SIGTERM', async () => {
  const s = await spawnServer(ws, ['serve', 'mcp', '--bind', '127.0.0.1:0', '--workers', '2']);
  const responses = await Promise.all(
    Array.from({ length: 40 }, () =>
      fetch(`${s.url}/tools/search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'foxes' }),
      }),
    ),
  );
  assert.deepEqual([...new Set(responses.map((r) => r.status))], [200]);
  const body = (await responses[0]!.json()) as { results: unknown[] };
  assert.ok(body.results.length > 0);
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(s.stdout.match(/^Listening on /gm)?.length, 1);
  s.child.kill('SIGTERM');
  assert.equal(await s.exit, 0);
});
