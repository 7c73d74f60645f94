// End to end: the real `kbctx` CLI against an OpenAI-compatible server started here (127.0.0.1:0):
// inline embedding during sync, embed pending, hybrid search with --explain, staleness in stats.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { hashVector } from './helpers/hashing-embedder.ts';
import { Workspace } from './helpers/workspace.ts';

describe('kbctx embed / semantic search (CLI)', () => {
  let server: Server;
  let baseUrl = '';
  let requests = 0;
  const ws = new Workspace();
  before(async () => {
    server = createServer((req, res) => {
      let data = '';
      req.on('data', (c: Buffer) => (data += c.toString()));
      req.on('end', () => {
        requests++;
        const input = (JSON.parse(data) as { input: string[] }).input;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ data: input.map((t, index) => ({ index, embedding: Array.from(hashVector(t, 48)) })) }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    ws.write('docs/rain.md', '# Rain\n\nHeavy rain and wind are forecast for the weekend.\n');
    ws.write('docs/stocks.md', '# Stocks\n\nStocks rose after quarterly earnings beat forecasts.\n');
    ws.write('docs/cats.md', '# Cats\n\nCats purr and chase mice around the house.\n');
  });
  after(() => {
    server.close();
    ws.cleanup();
  });
  const config = (model: string): void =>
    ws.config(
      `[embedding]\nprovider = "openai"\nbase_url = "${baseUrl}"\nmodel = "${model}"\ndims = 48\nbatch_size = 2\n` +
        `[connectors.filesystem.docs]\nroot = "docs"\n`,
    );

  it('refuses semantic search with a clear error while embeddings are disabled', async () => {
    ws.config('[connectors.filesystem.docs]\nroot = "docs"\n');
    await ws.kbctx(['sync', 'all']);
    const r = await ws.kbctx(['search', 'rain', '--mode', 'semantic']);
    assert.equal(r.code, 3);
    assert.match(r.stderr, /\[embedding\].*kbctx embed pending/);
  });

  it('embeds pending chunks, then has nothing left to do', async () => {
    config('m1');
    const first = await ws.kbctx(['embed', 'pending']);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /embedded 3 of 3 pending chunk\(s\) with openai:m1/);
    const again = await ws.kbctx(['embed', 'pending']);
    assert.match(again.stdout, /all chunks are already embedded/);
  });

  it('embeds new chunks inline during sync', async () => {
    ws.write('docs/snow.md', '# Snow\n\nSnow closed the mountain passes overnight.\n');
    const before = requests;
    const sync = await ws.kbctx(['sync', 'all']);
    assert.equal(sync.code, 0, sync.stderr);
    assert.match(sync.stderr, /embedded 1 chunk\(s\) with openai:m1/);
    assert.equal(requests, before + 1);
  });

  it('answers hybrid search with the explain numbers over --json', async () => {
    const r = await ws.kbctx(['--json', 'search', 'rain', 'forecast', '--mode', 'hybrid', '--explain']);
    assert.equal(r.code, 0, r.stderr);
    const body = JSON.parse(r.stdout) as {
      results: { source_id: string; score: number; explain: Record<string, number | null> }[];
      explain: Record<string, unknown>;
    };
    assert.equal(body.explain['mode'], 'hybrid');
    assert.equal(body.explain['alpha'], 0.6);
    assert.ok((body.explain['vector_candidates'] as number) > 0);
    assert.equal(body.results[0]?.source_id, 'rain.md');
    assert.equal(body.results[0]?.explain['hybrid_score'], body.results[0]?.score);
    assert.notEqual(body.results[0]?.explain['semantic_score'], null);
  });

  it('reports embeddings of an older model as stale, and rebuild replaces them', async () => {
    config('m2');
    const stats = await ws.kbctx(['stats']);
    assert.match(stats.stdout, /STALE\s+openai:m1 \(48 dims\): 4/);
    assert.match(stats.stdout, /kbctx embed rebuild/);
    const rebuilt = await ws.kbctx(['embed', 'rebuild']);
    assert.match(rebuilt.stdout, /dropped 4 embedding\(s\)\nembedded 4 of 4/);
    const after = await ws.kbctx(['stats']);
    assert.match(after.stdout, /current\s+openai:m2 \(48 dims\): 4/);
    assert.doesNotMatch(after.stdout, /STALE/);
  });
});
