// Background embedding with a real server process and an OpenAI-compatible provider started here:
// new chunks are embedded after each background sync; during a provider outage keyword search keeps
// answering and the failed pass is retried (here: by the next sync) until the vectors are complete.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, it } from 'node:test';
import { hashVector } from '../helpers/hashing-embedder.ts';
import { spawnLiveServer } from '../helpers/live-server.ts';
import { Workspace } from '../helpers/workspace.ts';

const ws = new Workspace('kbctx-live-embed-');
let provider: Server;
let down = false;

before(async () => {
  provider = createServer((req, res) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString()));
    req.on('end', () => {
      if (down) {
        res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"message":"maintenance"}}');
        return;
      }
      const input = (JSON.parse(data) as { input: string[] }).input;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: input.map((t, index) => ({ index, embedding: Array.from(hashVector(t, 32)) })) }));
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/v1`;
  ws.write('docs/a.md', '# Alpha\n\nThe first note.\n');
  ws.config(
    `[embedding]\nprovider = "openai"\nbase_url = "${base}"\nmodel = "m"\ndims = 32\nmax_retries = 0\n\n` +
      `[connectors.filesystem.docs]\nroot = "docs"\n\n[sync]\ninterval = "off"\n`,
  );
});
after(() => {
  provider.close();
  ws.cleanup();
});

it('embeds after background syncs, keeps searching through an outage and catches up afterwards', async () => {
  const server = await spawnLiveServer(ws, [], { OPENAI_API_KEY: 'test' });
  try {
    await server.waitForLog(/embed: 1 chunk\(s\) with openai:m/);
    down = true;
    let from = server.log().length;
    ws.write('docs/b.md', '# Beta\n\nA heron waits by the river.\n');
    await server.waitForLog(/embed: failed after 0 of 1 chunk\(s\): .*retrying in 30 s/, { from });
    assert.equal((await server.search('heron'))[0]?.source_id, 'b.md', 'keyword search answers during the outage');

    down = false;
    from = server.log().length;
    ws.write('docs/c.md', '# Gamma\n\nOtters play in the shallows.\n');
    await server.waitForLog(/embed: 2 chunk\(s\) with openai:m/, { from });
    const res = await fetch(`${server.url}/tools/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '# Beta\n\nA heron waits by the river.', mode: 'semantic' }),
    });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { results: { source_id: string }[] }).results[0]?.source_id, 'b.md');
  } finally {
    await server.stop();
  }
});
