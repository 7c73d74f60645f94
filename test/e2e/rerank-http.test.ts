// The rerank plugin with provider = "http" end to end: the real CLI, REST and MCP (official SDK client)
// against a stand-in remote reranker on 127.0.0.1 that reverses the order it is given, in each wire format.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { spawnServer } from '../helpers/kbctx-server.ts';
import { startStandInReranker, type StandInReranker } from '../helpers/stand-in-reranker.ts';
import { Workspace } from '../helpers/workspace.ts';

interface Hit {
  title: string;
  score: number;
  explain?: { fused_rank?: number; rerank_score?: number | null; rerank_note?: string };
}

let ws: Workspace;
let remote: StandInReranker;

const configure = (rerank: string): void =>
  ws.config(`[db]\npath = "data/index.sqlite"\n[connectors.filesystem.docs]\nroot = "docs"\n\n[rerank]\n${rerank}\n`);

async function search(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ hits: Hit[]; stderr: string }> {
  const r = await ws.kbctx(['search', 'alpha', '--json', ...args], { env });
  assert.equal(r.code, 0, r.stderr);
  return { hits: (JSON.parse(r.stdout) as { results: Hit[] }).results, stderr: r.stderr };
}
const titles = (hits: Hit[]): string[] => hits.map((h) => h.title);

let fused: string[];

before(async () => {
  remote = await startStandInReranker(3000);
  ws = new Workspace();
  // Five documents with fewer and fewer mentions of the query word: a fixed keyword order.
  for (let i = 1; i <= 5; i++) ws.write(`docs/d${i}.md`, `# Doc ${i}\n\n${'alpha '.repeat(7 - i)}beta gamma ${i}\n`);
  configure(`provider = "http"\nformat = "tei"\nbase_url = "${remote.url}/tei"`);
  const sync = await ws.kbctx(['sync', 'all']);
  assert.equal(sync.code, 0, sync.stderr);
  const before = remote.requests.length;
  fused = titles((await search(['--no-rerank'])).hits);
  assert.equal(fused.length, 5);
  assert.equal(remote.requests.length, before, '--no-rerank skips the reranker');
});
after(async () => {
  await remote.close();
  ws.cleanup();
});

describe('reranking through a remote rerank API', () => {
  for (const [format, path] of [
    ['cohere', 'cohere/v2'],
    ['cohere', 'cohere/v1'],
    ['jina', 'jina/v1'],
    ['voyage', 'voyage/v1'],
    ['tei', 'tei'],
  ] as const) {
    it(
      `${format} (${path}/rerank): the fused candidates ` + `reordered, limit respected, both ranks explained`,
      async () => {
        configure(
          `provider = "http"\nformat = "${format}"\n` +
            `base_url = "${remote.url}/${path}"\nmodel = "m1"\napi_key_env = "RK_KEY"`,
        );
        const { hits } = await search(['--explain', '--limit', '3'], { RK_KEY: 'sekrit' });
        assert.deepEqual(titles(hits), [...fused].reverse().slice(0, 3));
        assert.deepEqual(
          hits.map((h) => h.explain?.fused_rank),
          [5, 4, 3],
        );
        assert.ok(hits.every((h) => typeof h.explain?.rerank_score === 'number' && h.score === h.explain.rerank_score));
        assert.ok(hits[0]!.score > hits[1]!.score);
        const sent = remote.requests.at(-1)!;
        assert.equal(sent.path, `/${path}/rerank`);
        assert.equal(sent.authorization, 'Bearer sekrit');
        const documents = (format === 'tei' ? sent.body['texts'] : sent.body['documents']) as string[];
        assert.equal(documents.length, 5, 'every candidate is sent, not only the page');
        assert.match(documents[0]!, /^# Doc \d\n\nalpha alpha/, 'the matched chunk text, which holds the title');
        if (format !== 'tei') assert.equal(sent.body['model'], 'm1');
      },
    );
  }

  it('past budget_ms: the fused order, with a note in explain and a log line', async () => {
    configure(`provider = "http"\nformat = "jina"\nbase_url = "${remote.url}/slow/jina"\nbudget_ms = 300`);
    const { hits, stderr } = await search(['--explain']);
    assert.deepEqual(titles(hits), fused);
    assert.equal(hits[0]!.explain?.fused_rank, 1);
    assert.equal(hits[0]!.explain?.rerank_score, null);
    assert.match(hits[0]!.explain?.rerank_note ?? '', /fused order kept/);
    assert.match(stderr, /\[rerank\] reranking skipped/);
  });

  it('a failing remote (500): the fused order; with fail_open = false an upstream error (exit 1)', async () => {
    configure(`provider = "http"\nformat = "cohere"\nbase_url = "${remote.url}/fail/cohere/v2"`);
    const { hits } = await search(['--explain']);
    assert.deepEqual(titles(hits), fused);
    assert.match(hits[0]!.explain?.rerank_note ?? '', /HTTP 500/);
    configure(`provider = "http"\nformat = "cohere"\nbase_url = "${remote.url}/fail/cohere/v2"\nfail_open = false`);
    const failed = await ws.kbctx(['search', 'alpha', '--json']);
    assert.equal(failed.code, 1, failed.stderr);
    assert.match(failed.stderr, /upstream_error|HTTP 500/);
  });

  it('REST and MCP: reranked by default, `rerank: false` skips it (the remote sees no request)', async () => {
    configure(`provider = "http"\nformat = "cohere"\nbase_url = "${remote.url}/cohere/v2"`);
    const server = await spawnServer(ws, ['serve', 'mcp', '--bind', '127.0.0.1:0', '--no-watch']);
    try {
      const rest = async (body: Record<string, unknown>): Promise<Hit[]> => {
        const res = await fetch(`${server.url}/tools/search`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: 'alpha', ...body }),
        });
        assert.equal(res.status, 200);
        return ((await res.json()) as { results: Hit[] }).results;
      };
      const reranked = await rest({ explain: true, limit: 2 });
      assert.deepEqual(titles(reranked), [...fused].reverse().slice(0, 2));
      assert.deepEqual(
        reranked.map((h) => h.explain?.fused_rank),
        [5, 4],
      );
      let count = remote.requests.length;
      assert.deepEqual(titles(await rest({ rerank: false })), fused);
      assert.equal(remote.requests.length, count);

      const client = new Client({ name: 'rerank-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
      try {
        const call = async (args: Record<string, unknown>): Promise<Hit[]> => {
          const out = await client.callTool({ name: 'search', arguments: { query: 'alpha', ...args } });
          return (out.structuredContent as { results: Hit[] }).results;
        };
        count = remote.requests.length;
        assert.deepEqual(titles(await call({ rerank: false })), fused);
        assert.equal(remote.requests.length, count);
        assert.deepEqual(titles(await call({})), [...fused].reverse());
        assert.equal(remote.requests.length, count + 1);
      } finally {
        await client.close();
      }
    } finally {
      await server.stop();
    }
  });
});
