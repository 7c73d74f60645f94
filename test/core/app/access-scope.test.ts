// A token's data scope (ADR 0225) on every read use-case, through the real composition root: search (keyword, with a
// shared response cache), get, sources, stats, MCP resources' document pages, and a Lua tool and agent whose
// `context.search/get/sources` run in real Lua workers. The scope comes from the request origin, as transports set it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AccessScope } from '../../../core/domain/access-scope.ts';
import { KbctxError } from '../../../core/domain/errors.ts';
import { documentId } from '../../../core/domain/ids.ts';
import { getDocument } from '../../../plugins/tools-builtin/documents.ts';
import { withRequestOrigin } from '../../../core/app/request-origin.ts';
import { LruSearchCache } from '../../../plugins/search-cache/lru-search-cache.ts';
import { parseSearchParams } from '../../../plugins/tools-builtin/search-params.ts';
import { search } from '../../../core/app/search.ts';
import { indexStats, listSources } from '../../../plugins/tools-builtin/sources.ts';
import { listDocumentPage } from '../../../plugins/mcp-server/document-pages.ts';
import { IndexFixture } from '../../helpers/index-fixture.ts';
import { toolsOf } from '../../../plugins/tool-registry/api.ts';
import { agentsOf } from '../../../plugins/agents-inline/api.ts';

const PUBLIC: AccessScope = { paths: ['public/**'] };
const NOTES: AccessScope = { sources: ['filesystem:n*'] };
const as = <T>(scope: AccessScope | undefined, fn: () => T): T => withRequestOrigin({ token: 't', scope }, fn);

// A TS plugin's tool reading the index through its ctx (the built-in tools' bodies).
const ASKER = `export default {
  name: 'acme-ask',
  version: '1.0.0',
  kbctx: '^0.2',
  apply(kernel) {
    kernel.hooks.tools.tap('acme-ask', (tools) => tools.add({
      name: 'ask', description: 'Reads through ctx', inputSchema: { type: 'object' },
      call: async (params, ctx) => ({
        ids: (await ctx.search({ query: 'signing keys', limit: 3 })).results.map((r) => r.source_id),
        got: await ctx.get(params.id).then(() => true, (e) => e.message),
        sources: (await ctx.sources()).sources.map((s) => s.source),
      }),
    }));
  },
};
`;

describe('a token scope on the read use-cases', () => {
  const fx = new IndexFixture(
    `
[connectors.filesystem.docs]
root = "docs"
[connectors.filesystem.notes]
root = "notes"
[tools.script.kb]
path = "tools/kb.lua"
[agents.script.guide]
path = "agents/guide.lua"
`,
    ['bundled', './plugins/ask.mjs'],
  );
  const secret = documentId('filesystem:docs', 'private/keys.md');
  const open = documentId('filesystem:docs', 'public/keys.md');

  before(async () => {
    // Six strong private matches crowd out the public one: a scope applied after the cut would leave nothing.
    for (let i = 0; i < 6; i++)
      fx.ws.write(`docs/private/k${i}.md`, `# Signing keys ${i}\n\nsigning keys signing keys`);
    fx.ws.write('docs/private/keys.md', '# Signing keys\n\nThe private signing keys live in the vault.');
    fx.ws.write('docs/public/keys.md', '# Public keys\n\nOur public signing keys are published here.');
    fx.ws.write('notes/keys.md', '# Notes on keys\n\nRotate signing keys yearly.');
    fx.ws.write(
      'tools/kb.lua',
      `
tool = { description = "", parameters = { { name = "q", required = true }, { name = "id" } } }
function tool.execute(params, context)
  local ids = {}
  for _, r in ipairs(context.search(params.q, { limit = 3 })) do ids[#ids + 1] = r.source_id end
  local ok, err = pcall(context.get, params.id)
  local sources = {}
  for _, s in ipairs(context.sources()) do sources[#sources + 1] = s.source end
  return { ids = ids, got = ok, err = not ok and err or nil, sources = sources }
end`,
    );
    fx.ws.write(
      'agents/guide.lua',
      `
agent = { description = "A guide", arguments = { { name = "topic", required = true } } }
function agent.resolve(args, config, context)
  local r = context.search(args.topic, { limit = 1 })
  return { system = "First: " .. (r[1] and r[1].source_id or "nothing"), messages = {} }
end`,
    );
    fx.ws.write('plugins/ask.mjs', ASKER);
    await fx.sync();
    await fx.kbctx.ready();
  });
  after(() => fx.close());

  const deps = () => fx.kbctx.index.searchDeps();
  const ids = async (scope: AccessScope | undefined, cache?: LruSearchCache, limit = 2): Promise<string[]> => {
    const params = parseSearchParams({ query: 'signing keys', limit }, deps().retrieval);
    const response = await as(scope, () => search({ ...deps(), cache }, params));
    return response.results.map((r) => r.sourceId).sort();
  };

  it('search: limit filled from the scope, inside candidate retrieval; a filter only narrows', async () => {
    assert.deepEqual(await ids(PUBLIC, undefined, 1), ['public/keys.md']);
    assert.deepEqual(await ids(NOTES), ['keys.md']);
    assert.equal((await ids(undefined, undefined, 3)).length, 3);
    const narrow = parseSearchParams({ query: 'keys', filters: { path: ['**/keys.md'] } }, deps().retrieval);
    const found = (await as(PUBLIC, () => search(deps(), narrow))).results.map((r) => r.sourceId);
    assert.deepEqual(found, ['public/keys.md'], 'a filter narrows');
    // A source outside the scope does not exist for the caller: the not_found an unknown source gets.
    const widen = parseSearchParams({ query: 'signing keys', source: 'filesystem:docs' }, deps().retrieval);
    await assert.rejects(
      as(NOTES, () => search(deps(), widen)),
      /source 'filesystem:docs' does not exist; sources: filesystem:notes \(/,
    );
  });

  it('search: two scopes never share a cached page', async () => {
    const cache = new LruSearchCache(16);
    const everything = await ids(undefined, cache);
    assert.ok(
      everything.every((id) => id.startsWith('private/')),
      everything.join(),
    );
    assert.deepEqual(await ids(PUBLIC, cache), ['public/keys.md']);
    assert.deepEqual(await ids(NOTES, cache), ['keys.md']);
    assert.deepEqual(await ids(PUBLIC, cache), ['public/keys.md']);
    assert.equal(cache.hits, 1);
  });

  it('search: an unknown source lists only the sources in scope', async () => {
    const params = parseSearchParams({ query: 'signing', source: 'filesystem:nope' }, deps().retrieval);
    await assert.rejects(
      as(NOTES, () => search(deps(), params)),
      (e: unknown) => e instanceof KbctxError && e.code === 'not_found' && !e.message.includes('filesystem:docs'),
    );
  });

  it('get: outside the scope is the same not_found as a missing id', async () => {
    const store = fx.kbctx.store;
    assert.equal((await as(PUBLIC, () => getDocument(store, open))).sourceId, 'public/keys.md');
    assert.equal((await getDocument(store, secret)).sourceId, 'private/keys.md');
    const answer = async (id: string): Promise<[string, string]> => {
      const error = await as(PUBLIC, () => getDocument(store, id)).then(
        () => assert.fail('expected not_found'),
        (e: unknown) => e as KbctxError,
      );
      return [error.code, error.message.replace(id, '<id>')];
    };
    assert.deepEqual(await answer(secret), await answer(documentId('filesystem:docs', 'no/such.md')));
    assert.deepEqual(await answer(secret), ['not_found', 'document not found: <id>']);
  });

  it('sources and stats: only the sources in scope, totals from them', async () => {
    const labels = fx.kbctx.index.connectorLabels();
    const listed = await as(NOTES, () => listSources(fx.kbctx.store, labels));
    assert.deepEqual(
      listed.map((s) => [s.source, s.documentCount]),
      [['filesystem:notes', 1]],
    );
    assert.equal((await as(PUBLIC, () => listSources(fx.kbctx.store, labels))).length, 2, 'paths: list-level');
    const stats = await as(NOTES, () => indexStats(fx.kbctx.store, labels));
    assert.equal(stats.counts.documents, 1);
    assert.equal((await indexStats(fx.kbctx.store, labels)).counts.documents, 9);
  });

  it('MCP resources/list pages hold only documents in scope; meta is read per document', async () => {
    const page = await as(PUBLIC, () => listDocumentPage(fx.kbctx.store, undefined, 3));
    assert.deepEqual(
      page.documents.map((d) => d.sourceId),
      ['public/keys.md'],
    );
    const none = await as({ meta: { team: 'infra' } }, () => listDocumentPage(fx.kbctx.store, undefined, 3));
    assert.deepEqual(none, { documents: [], nextCursor: undefined });
  });

  it(
    'Lua and TS plugin tools and a Lua agent see only the ' + 'scope through context/ctx search, get, sources',
    async () => {
      const tools = toolsOf(fx.kbctx.kernel);
      // Interleaved calls under two scopes share the Lua workers: each context call keeps its own caller's scope.
      const [pub, notes] = await Promise.all([
        as(PUBLIC, () => tools.call('kb', { q: 'signing keys', id: secret })),
        as(NOTES, () => tools.call('kb', { q: 'signing keys', id: open })),
      ]);
      assert.deepEqual(pub, {
        ids: ['public/keys.md'],
        got: false,
        err: `kb.lua:6: document not found: ${secret}`,
        sources: ['filesystem:docs', 'filesystem:notes'],
      });
      assert.deepEqual(notes, {
        ids: ['keys.md'],
        got: false,
        err: `kb.lua:6: document not found: ${open}`,
        sources: ['filesystem:notes'],
      });
      const ts = await as(NOTES, () => tools.call('ask', { id: open }));
      assert.deepEqual(ts, { ids: ['keys.md'], got: `document not found: ${open}`, sources: ['filesystem:notes'] });
      const prompt = await as(PUBLIC, () => agentsOf(fx.kbctx.kernel).resolve('guide', { topic: 'signing keys' }));
      assert.equal(prompt.system, 'First: public/keys.md');
    },
  );
});
