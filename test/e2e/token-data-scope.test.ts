// Issue 34's Show: three tokens over a real `kbctx serve mcp` (127.0.0.1, port 0) with a real git repository and a
// folder: `all` (every scope, admin), `gitonly` (sources = ["git:*"]) and `public` (paths = ["public/**"], tools
// limited to search and get, stored as a SHA-256). For each: search (a scoped search still fills `limit` though
// better-matching documents lie outside), get (outside is the same 404 as a missing id), sources, MCP tools/list,
// resources/list and tools/call, the web page's own routes, and /sync (403 without admin).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { commit, initRepo } from '../helpers/git-repo.ts';
import { spawnServer, type KbctxServer } from '../helpers/kbctx-server.ts';
import { Workspace } from '../helpers/workspace.ts';

const SECRETS = { all: 'secret-all-0123', gitonly: 'secret-git-4567', public: 'secret-public-89ab' } as const;
type TokenName = keyof typeof SECRETS;
const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');
const LISTENING = /Listening on (http:\/\/\S+)\n/;

interface Hit {
  id: string;
  source: string;
  /** The document's path in its source. */
  source_id: string;
}

let ws: Workspace;
let server: KbctxServer;

before(async () => {
  ws = new Workspace('kbctx-scoped-tokens-');
  // Ten folder documents that match "glacier" strongly, private and public ones, and five weak git documents.
  for (let i = 0; i < 5; i++) {
    ws.write(`docs/private/ice-${i}.md`, `# Glacier ${i}\n\nglacier glacier glacier glacier notes ${i}.\n`);
    ws.write(`docs/public/ice-${i}.md`, `# Public glacier ${i}\n\nglacier glacier public page ${i}.\n`);
  }
  const repo = initRepo(ws.path('repo'));
  const files: Record<string, string> = {};
  for (let i = 0; i < 5; i++)
    files[`runbooks/melt-${i}.md`] = `# Runbook ${i}\n\nOne glacier mention in a long runbook ${i}.\n`;
  commit(repo, files, 'runbooks', '2026-01-01T00:00:00Z');
  ws.config(
    [
      '[connectors.filesystem.docs]',
      'root = "docs"',
      '',
      `[connectors.git.repo]\nurl = "${pathToFileURL(repo).href}"\nbranch = "main"`,
      '',
      '[server]',
      'watch = false',
      '',
      '[server.tokens.all]\ntoken_env = "KBCTX_TOKEN_ALL"\nadmin = true',
      '',
      '[server.tokens.gitonly]\ntoken_env = "KBCTX_TOKEN_GIT"\nsources = ["git:*"]',
      '',
      `[server.tokens.public]\ntoken_sha256 = "${sha256(SECRETS.public)}"\n` +
        `paths = ["public/**"]\ntools = ["search", "get"]`,
      '',
    ].join('\n'),
  );
  const env = { KBCTX_TOKEN_ALL: SECRETS.all, KBCTX_TOKEN_GIT: SECRETS.gitonly };
  const sync = await ws.kbctx(['sync', 'all'], { env });
  assert.equal(sync.code, 0, sync.stderr);
  server = await spawnServer(ws, ['serve', 'mcp', '--bind', '127.0.0.1:0'], env, LISTENING);
});
after(async () => {
  await server?.stop();
  ws?.cleanup();
});

const auth = (token: TokenName) => ({ authorization: `Bearer ${SECRETS[token]}` });

async function rest(token: TokenName, method: 'GET' | 'POST', route: string, body?: object) {
  const res = await fetch(`${server.url}${route}`, {
    method,
    headers: { ...auth(token), ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function mcp(token: TokenName): Promise<Client> {
  const client = new Client({ name: `scoped-${token}`, version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: auth(token) } }),
  );
  return client;
}

const inScope: Record<TokenName, (hit: Hit) => boolean> = {
  all: () => true,
  gitonly: (hit) => hit.source.startsWith('git:'),
  public: (hit) => hit.source_id.startsWith('public/'),
};

const allHits = async (): Promise<Hit[]> =>
  (await rest('all', 'POST', '/tools/search', { query: 'glacier', limit: 50 })).body['results'] as Hit[];

for (const token of ['all', 'gitonly', 'public'] as const) {
  describe(`token ${token}`, () => {
    it('REST search fills limit from what it may see, and nothing outside', async () => {
      const { status, body } = await rest(token, 'POST', '/tools/search', { query: 'glacier', limit: 4 });
      assert.equal(status, 200);
      const hits = body['results'] as Hit[];
      assert.equal(hits.length, 4, `limit 4 filled for ${token}`);
      for (const hit of hits) assert.ok(inScope[token](hit), `${token} saw ${hit.source} ${hit.source_id}`);
    });

    it('REST get: a document outside is the same 404 as a missing id', async () => {
      const outside = (await allHits()).find((hit) => !inScope[token](hit));
      const missing = await rest(token, 'POST', '/tools/get', { id: 'no-such-document-id' });
      assert.equal(missing.status, 404);
      if (outside === undefined) {
        assert.equal(token, 'all');
        return;
      }
      const hidden = await rest(token, 'POST', '/tools/get', { id: outside.id });
      assert.equal(hidden.status, 404);
      assert.equal((hidden.body['error'] as { code: string }).code, (missing.body['error'] as { code: string }).code);
      const inside = (await allHits()).find((hit) => inScope[token](hit))!;
      assert.equal((await rest(token, 'POST', '/tools/get', { id: inside.id })).status, 200);
    });

    it('REST sources lists only the sources in scope (public may not call sources: its tools scope)', async () => {
      const { status, body } = await rest(token, 'GET', '/tools/sources');
      if (token === 'public') {
        assert.equal(status, 404);
        return;
      }
      assert.equal(status, 200);
      const names = (body['sources'] as { name: string }[]).map((s) => s.name).sort();
      if (token === 'gitonly') assert.deepEqual(names, ['git:repo']);
      else assert.deepEqual(names, ['filesystem:docs', 'git:repo']);
    });

    it('MCP: tools/list, search, get and resources/list honour the token', async () => {
      const client = await mcp(token);
      try {
        const tools = (await client.listTools()).tools.map((t) => t.name);
        if (token === 'public') assert.deepEqual(tools.sort(), ['get', 'search']);
        else assert.ok(tools.includes('sources') && tools.includes('search'), tools.join(','));
        const result = await client.callTool({ name: 'search', arguments: { query: 'glacier', limit: 3 } });
        assert.notEqual(result.isError, true, JSON.stringify(result.content));
        const hits = (result.structuredContent as { results: Hit[] }).results;
        assert.equal(hits.length, 3);
        for (const hit of hits) assert.ok(inScope[token](hit), `${token} saw ${hit.source} over MCP`);
        const outside = (await allHits()).find((hit) => !inScope[token](hit));
        if (outside !== undefined) {
          const got = await client.callTool({ name: 'get', arguments: { id: outside.id } });
          assert.equal(got.isError, true, `${token} could get ${outside.id} over MCP`);
        }
        if (token === 'public') {
          const denied = await client.callTool({ name: 'sources', arguments: {} }).catch((error: Error) => error);
          assert.ok(denied instanceof Error || denied.isError === true, 'public called sources');
        }
        const resources = (await client.listResources()).resources;
        // The live index's status is an admin's (as GET /sync/status is): listed and readable by `all` only.
        const status = resources.some((r) => r.uri === 'kbctx://sync/status');
        assert.equal(status, token === 'all', `${token} lists kbctx://sync/status: ${status}`);
        if (token !== 'all') await assert.rejects(client.readResource({ uri: 'kbctx://sync/status' }), /not found/i);
        const documents = resources.filter((r) => r.uri.startsWith('kbctx://documents/'));
        assert.ok(documents.length > 0, `${token} lists document resources`);
        const visible = new Set((await allHits()).filter(inScope[token]).map((hit) => hit.id));
        for (const r of documents) {
          const id = decodeURIComponent(r.uri.slice('kbctx://documents/'.length));
          assert.ok(visible.has(id), `${token} lists resource ${r.uri} outside its scope`);
        }
      } finally {
        await client.close();
      }
    });

    it('the web page routes: a document outside has no chunks to show', async () => {
      const outside = (await allHits()).find((hit) => !inScope[token](hit));
      const inside = (await allHits()).find((hit) => inScope[token](hit))!;
      const ok = await fetch(`${server.url}/web/documents/${encodeURIComponent(inside.id)}/chunks`, {
        headers: auth(token),
      });
      assert.equal(ok.status, 200);
      if (outside !== undefined) {
        const res = await fetch(`${server.url}/web/documents/${encodeURIComponent(outside.id)}/chunks`, {
          headers: auth(token),
        });
        assert.equal(res.status, 404);
      }
    });

    it(token === 'all' ? '/sync is allowed with admin' : '/sync is 403 forbidden without admin', async () => {
      const res = await fetch(`${server.url}/sync/filesystem:docs`, {
        method: 'POST',
        headers: { ...auth(token), 'content-type': 'application/json' },
        body: '{}',
      });
      if (token === 'all') assert.ok(res.status < 300, `admin /sync answered ${res.status}`);
      else {
        assert.equal(res.status, 403);
        const body = (await res.json()) as { error: { code: string; message: string } };
        assert.equal(body.error.code, 'forbidden');
        assert.match(body.error.message, new RegExp(token));
        assert.doesNotMatch(body.error.message, new RegExp(SECRETS[token]));
      }
    });
  });
}
