// The `since` and `filters` search parameters: parsed once for every surface, applied inside
// keyword and vector candidate retrieval (before the cut), and unknown parameters rejected by name.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { testRetrieval } from '../../helpers/retrieval.ts';
import { KbctxError } from '../../../core/domain/errors.ts';
import { documentId } from '../../../core/domain/ids.ts';
import { openSqliteStore, type SqliteStore } from '../../../plugins/store-sqlite/sqlite-store.ts';
import { HashingEmbedder } from '../../helpers/hashing-embedder.ts';
import { embedPending } from '../../../core/app/embed.ts';
import { parseSearchParams } from '../../../plugins/tools-builtin/search-params.ts';
import { search } from '../../../core/app/search.ts';
import { createSemanticSearch } from '../../../core/app/semantic-search.ts';
import { toDocument } from '../../../core/app/sync.ts';
import { toChunks } from '../../helpers/chunks.ts';

const retrieval = testRetrieval();
const NOW = new Date('2026-03-10T12:00:00Z');
let dir: string;
let store: SqliteStore;
const embedder = new HashingEmbedder();

async function add(connector: string, sourceId: string, body: string, updatedAt: string): Promise<void> {
  const doc = toDocument(
    { sourceId, body, title: sourceId, updatedAt },
    documentId(connector, sourceId),
    connector,
    connector,
  );
  await store.upsertDocument(doc, toChunks(doc, { maxTokens: 700, overlapTokens: 0 }), null);
}

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'kbctx-filters-'));
  store = openSqliteStore(path.join(dir, 'index.sqlite'));
  // 60 strong old matches crowd the 20 candidates: a filter applied after the cut would find nothing new.
  for (let i = 0; i < 60; i++)
    await add(
      'filesystem:old',
      `old-${i}.md`,
      `quarterly budget budget review budget notes ${i}`,
      '2020-01-0' + ((i % 9) + 1) + 'T00:00:00.000Z',
    );
  await add('filesystem:new', 'new-a.md', 'a passing word on the budget', '2026-03-09T08:00:00Z');
  await add('filesystem:new', 'new-b.md', 'budget mentioned once more', '2026-03-05T00:00:00.000Z');
  await add('filesystem:old', 'edge.md', 'budget at the start of the day', '2026-03-01T00:00:00+00:00');
  await embedPending({ store, embedder });
});
after(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const deps = () => ({ store, retrieval, semantic: createSemanticSearch(() => embedder) });
const ids = async (input: Record<string, unknown>) =>
  (await search(deps(), parseSearchParams({ query: 'budget', ...input }, retrieval, NOW))).results
    .map((r) => r.sourceId)
    .sort();

describe('since and filters in search', () => {
  for (const mode of ['keyword', 'semantic', 'hybrid'] as const) {
    it(`${mode}: since is applied before the cut, inclusive at the boundary`, async () => {
      assert.deepEqual(await ids({ mode, since: '2026-03-01', limit: 5 }), ['edge.md', 'new-a.md', 'new-b.md']);
      assert.deepEqual(await ids({ mode, since: '7d', limit: 5 }), ['new-a.md', 'new-b.md']);
    });
  }

  it('accepts Context Harness filters {source, since}, alone or with the top-level twins', async () => {
    assert.deepEqual(await ids({ filters: { source: 'filesystem:new' } }), ['new-a.md', 'new-b.md']);
    assert.deepEqual(await ids({ filters: { source: 'filesystem', since: '2026-03-06' } }), ['new-a.md']);
    assert.deepEqual(await ids({ source: 'filesystem:old', filters: { since: '2026-03-01' } }), ['edge.md']);
    assert.deepEqual(await ids({ source: 'filesystem:new', filters: { source: 'filesystem:new' } }), [
      'new-a.md',
      'new-b.md',
    ]);
  });

  it('rejects unknown parameters and filters by name, and disagreeing twins', async () => {
    const bad = (input: Record<string, unknown>, pattern: RegExp) =>
      assert.throws(
        () => parseSearchParams({ query: 'budget', ...input }, retrieval, NOW),
        (e: unknown) => e instanceof KbctxError && e.code === 'bad_request' && pattern.test(e.message),
      );
    bad({ top_k: 3 }, /unknown parameter 'top_k'/);
    bad({ top_k: 3, sort: 'date' }, /unknown parameters 'top_k', 'sort'/);
    bad({ filters: { owner: 'me' } }, /unknown parameter 'filters\.owner'/);
    bad({ filters: { source: 3 } }, /filters\.source/);
    bad({ filters: 'git' }, /filters/);
    bad({ source: 'a', filters: { source: 'b' } }, /disagree/);
    bad({ filters: { since: 'last week' } }, /filters\.since/);
  });
});

describe('filters (ADR 0213): parsing', () => {
  const parse = (input: Record<string, unknown>) => parseSearchParams({ query: 'q', ...input }, retrieval, NOW).filter;
  const bad = (input: Record<string, unknown>, parameter: string, pattern: RegExp) =>
    assert.throws(
      () => parse(input),
      (e: unknown) =>
        e instanceof KbctxError &&
        e.code === 'bad_request' &&
        e.details?.['parameter'] === parameter &&
        pattern.test(e.message),
      `${JSON.stringify(input)} → ${parameter}`,
    );

  it('reads every field: a string or a list, meta values as text, instants resolved', () => {
    assert.equal(parse({}), undefined);
    assert.deepEqual(
      parse({
        until: '2026-03-01',
        filters: {
          source: ['git:docs', 's3'],
          since: '7d',
          path: ['docs/**', '!**/*.test.ts'],
          lang: 'TypeScript',
          type: 'markdown',
          tags: ['a', 'b', 'a'],
          tags_all: 'c',
          meta: { tier: [1, '2'], team: 'infra', draft: false },
        },
      }),
      {
        source: ['git:docs', 's3'],
        since: '2026-03-03T12:00:00.000Z',
        until: '2026-03-01T00:00:00.000Z',
        path: ['docs/**', '!**/*.test.ts'],
        lang: ['typescript'],
        type: ['markdown'],
        tags: ['a', 'b'],
        tagsAll: ['c'],
        meta: { draft: ['false'], team: ['infra'], tier: ['1', '2'] },
      },
    );
    assert.deepEqual(parse({ source: 'git' }), { source: ['git'] });
  });

  it('rejects unknown keys, bad globs, unknown languages and wrong shapes, naming the parameter', () => {
    bad({ filters: { folder: 'docs' } }, 'filters.folder', /unknown parameter 'filters\.folder'/);
    bad({ filters: { path: '[abc' } }, 'filters.path', /bad glob "\[abc"/);
    bad({ filters: { path: ['docs/**', '{a,b'] } }, 'filters.path', /bad glob "\{a,b"/);
    bad({ filters: { path: '!' } }, 'filters.path', /bad glob "!": it is empty/);
    bad({ filters: { path: 'a\\' } }, 'filters.path', /lone backslash/);
    bad({ filters: { path: [] } }, 'filters.path', /empty list/);
    bad({ filters: { path: [3] } }, 'filters.path', /string or a list of strings/);
    bad({ filters: { lang: 'typscript' } }, 'filters.lang', /unknown language 'typscript'; known: typescript/);
    bad({ filters: { tags: { a: 1 } } }, 'filters.tags', /got an object/);
    bad({ filters: { tags: [''] } }, 'filters.tags', /empty string/);
    bad({ filters: { tags_all: Array.from({ length: 65 }, (_, i) => `t${i}`) } }, 'filters.tags_all', /limit is 64/);
    bad({ filters: { meta: 'team=infra' } }, 'filters.meta', /must be an object/);
    bad({ filters: { meta: { team: { a: 1 } } } }, 'filters.meta.team', /got an object/);
    bad({ filters: { until: 'soon' } }, 'filters.until', /filters\.until/);
    bad({ until: 'soon' }, 'until', /parameter 'until'/);
    bad({ source: 'a', filters: { source: ['a', 'b'] } }, 'source', /disagree/);
  });
});

describe('filters (ADR 0213): a query tap edits source and since', () => {
  it('the request own source and since win over the parsed filter; several sources stay a list', async () => {
    const { searchFilter } = await import('../../../core/search/document-filter.ts');
    const p = parseSearchParams({ query: 'q', source: 'git', filters: { tags: 'a' } }, retrieval, NOW);
    assert.equal(p.source, 'git');
    assert.deepEqual(searchFilter({ ...p, source: 's3' }), { source: 's3', tags: ['a'] });
    assert.deepEqual(searchFilter({ ...p, source: undefined }), { tags: ['a'] });
    const several = parseSearchParams({ query: 'q', filters: { source: ['git', 's3'] }, since: '1d' }, retrieval, NOW);
    assert.equal(several.source, undefined);
    assert.deepEqual(searchFilter(several), { source: ['git', 's3'], since: '2026-03-09T12:00:00.000Z' });
    assert.equal(searchFilter({ ...several, since: undefined, filter: { since: several.since } }), undefined);
  });
});

describe('a token scope (ADR 0225) in every mode', () => {
  for (const mode of ['keyword', 'semantic', 'hybrid'] as const) {
    it(`${mode}: the request origin's scope is applied before the cut; a filter only narrows it`, async () => {
      const { withRequestOrigin } = await import('../../../core/app/request-origin.ts');
      const scoped = (scope: object, input: Record<string, unknown>) =>
        withRequestOrigin({ scope }, () => ids({ mode, ...input }));
      assert.deepEqual(await scoped({ sources: ['filesystem:new'] }, { limit: 2 }), ['new-a.md', 'new-b.md']);
      assert.deepEqual(await scoped({ paths: ['new-*', 'edge.md'] }, { limit: 3 }), [
        'edge.md',
        'new-a.md',
        'new-b.md',
      ]);
      assert.deepEqual(await scoped({ paths: ['new-*', 'edge.md'] }, { limit: 3, filters: { path: '*-a.md' } }), [
        'new-a.md',
      ]);
    });
  }
});
