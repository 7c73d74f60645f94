// The search filters (ADR 0213) over every surface: REST (`POST /tools/search`), MCP (the official SDK
// client, the tool's input schema), and the real CLI (`kbctx search --path … --tag … --meta k=v`),
// on a workspace synced from Markdown front matter: tags and metadata come from `tags:` and other keys.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const FILES = {
  'docs/ops/runbook.md':
    '---\ntitle: Runbook\ntags: [ops, infra]\nteam: infra\ntier: 1\n---\nRestart the heron service.\n',
  'docs/ops/deploy.md': '---\ntitle: Deploy\ntags: ops\nteam: web\n---\nThe heron deploy steps.\n',
  'docs/ops/crowd.md': '# Crowd\n\nheron heron heron heron everywhere.\n',
  'docs/notes/heron.txt': 'A heron note, heron heron.\n',
};

let s: TestServer;
let client: Client;
before(async () => {
  s = await startTestServer('', { files: FILES });
  client = new Client({ name: 'kbctx-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`)));
});
after(async () => {
  await client.close();
  await s.close();
});

const rest = async (body: unknown): Promise<{ status: number; json: Record<string, unknown> }> => {
  const res = await fetch(`${s.url}/tools/search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
};
type Results = { results: { source_id: string }[] };
const ids = (json: unknown): string[] => (json as Results).results.map((r) => r.source_id).sort();
const mcp = async (args: Record<string, unknown>) => client.callTool({ name: 'search', arguments: args });

const CASES: [Record<string, unknown>, string[]][] = [
  [{ path: 'ops/**' }, ['ops/crowd.md', 'ops/deploy.md', 'ops/runbook.md']],
  [{ path: ['ops/**', '!**/deploy.md'] }, ['ops/crowd.md', 'ops/runbook.md']],
  [{ lang: 'text' }, ['notes/heron.txt']],
  [{ type: 'text/plain' }, ['notes/heron.txt']],
  [{ type: 'markdown', tags: 'OPS' }, ['ops/deploy.md', 'ops/runbook.md']],
  [{ tags: ['infra', 'nothing'] }, ['ops/runbook.md']],
  [{ tags_all: ['ops', 'infra'] }, ['ops/runbook.md']],
  [{ meta: { team: 'web' } }, ['ops/deploy.md']],
  [{ meta: { tier: [1, 2] } }, ['ops/runbook.md']],
  [
    { source: ['filesystem:docs', 'git'], until: '2999-01-01' },
    ['notes/heron.txt', ...['crowd', 'deploy', 'runbook'].map((n) => `ops/${n}.md`)],
  ],
];

describe('search filters over REST and MCP', () => {
  it('the MCP input schema documents the filter fields', async () => {
    const { tools } = await client.listTools();
    const schema = tools.find((t) => t.name === 'search')!.inputSchema as {
      properties: Record<string, { properties?: Record<string, unknown> }>;
    };
    assert.deepEqual(Object.keys(schema.properties['filters']!.properties!).sort(), [
      'lang',
      'meta',
      'path',
      'since',
      'source',
      'tags',
      'tags_all',
      'type',
      'until',
    ]);
    assert.ok(schema.properties['until'], 'until at the top level, like since');
  });

  for (const [filters, want] of CASES) {
    it(`filters ${JSON.stringify(filters)}`, async () => {
      const r = await rest({ query: 'heron', filters });
      assert.equal(r.status, 200, JSON.stringify(r.json));
      assert.deepEqual(ids(r.json), want, 'REST');
      const m = await mcp({ query: 'heron', filters });
      assert.notEqual(m.isError, true);
      assert.deepEqual(ids(m.structuredContent), want, 'MCP');
    });
  }

  it('limit holds under a filter the best hits do not pass', async () => {
    const unfiltered = await rest({ query: 'heron', limit: 1 });
    assert.deepEqual(ids(unfiltered.json), ['notes/heron.txt']);
    const r = await rest({ query: 'heron', limit: 2, filters: { tags: 'ops' } });
    assert.deepEqual(ids(r.json), ['ops/deploy.md', 'ops/runbook.md']);
  });

  it('bad filters are 400 (REST) and isError bad_request (MCP) naming the parameter, never a 500', async () => {
    for (const [filters, parameter] of [
      [{ folder: 'ops' }, 'filters.folder'],
      [{ path: 'ops/[a' }, 'filters.path'],
      [{ lang: 'klingon' }, 'filters.lang'],
      [{ meta: ['team'] }, 'filters.meta'],
      [{ tags: [1] }, 'filters.tags'],
    ] as const) {
      const r = await rest({ query: 'heron', filters });
      assert.equal(r.status, 400, JSON.stringify(r.json));
      const error = r.json['error'] as { code: string; message: string };
      assert.equal(error.code, 'bad_request');
      assert.match(error.message, new RegExp(`'${parameter.replace('.', '\\.')}'`));
      const m = await mcp({ query: 'heron', filters });
      assert.equal(m.isError, true);
      assert.match((m.content as { text: string }[])[0]!.text, new RegExp(`bad_request: .*'${parameter}'`));
    }
    assert.deepEqual(
      s.log.filter((l) => /internal/.test(l)),
      [],
    );
  });
});

describe('search filters in the CLI', () => {
  const cli = async (...args: string[]) => s.ws.kbctx(['search', 'heron', '--json', ...args]);

  it('--path, --lang, --type, --tag, --tag-all, --meta, --source and --until', async () => {
    const run = async (...args: string[]) => {
      const r = await cli(...args);
      assert.equal(r.code, 0, r.stderr);
      return ids(JSON.parse(r.stdout));
    };
    assert.deepEqual(await run('--path', 'ops/**', '--path', '!**/crowd.md'), ['ops/deploy.md', 'ops/runbook.md']);
    assert.deepEqual(await run('--lang', 'text'), ['notes/heron.txt']);
    assert.deepEqual(await run('--type', 'markdown', '--tag', 'infra,nothing'), ['ops/runbook.md']);
    assert.deepEqual(await run('--tag-all', 'ops', '--tag-all', 'infra'), ['ops/runbook.md']);
    assert.deepEqual(await run('--meta', 'team=web', '--meta', 'team=nobody'), ['ops/deploy.md']);
    assert.deepEqual(await run('--meta', 'team=infra', '--meta', 'tier=1'), ['ops/runbook.md']);
    assert.deepEqual(await run('--source', 'git,filesystem', '--until', '2000-01-01'), []);
    assert.deepEqual((await run('--limit', '1', '--tag', 'ops')).length, 1);
  });

  it('bad filter flags are usage errors naming the parameter', async () => {
    const glob = await cli('--path', '{a,b');
    assert.notEqual(glob.code, 0);
    assert.match(glob.stderr, /filters\.path.*bad glob/);
    const meta = await cli('--meta', 'team');
    assert.notEqual(meta.code, 0);
    assert.match(meta.stderr, /--meta.*key=value/);
  });
});
