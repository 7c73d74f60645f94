import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { KbctxError } from '../../../core/domain/errors.ts';
import { IndexFixture } from '../../helpers/index-fixture.ts';
import { parseSearchParams } from '../../../plugins/tools-builtin/search-params.ts';
import { search } from '../../../core/app/search.ts';

const fx = new IndexFixture(
  '[connectors.filesystem.docs]\nroot = "docs"\n[connectors.filesystem.notes]\nroot = "notes"\n',
);

before(async () => {
  fx.ws.write(
    'docs/rotate-keys.md',
    '# Rotating signing keys\n\nTo rotate the signing keys, generate ' +
      'a new key pair and publish it before retiring the old one.',
  );
  fx.ws.write('docs/deploy.md', '# Deploying\n\nDeploys run from the main branch. Keys are not involved.');
  fx.ws.write(
    'docs/oncall.md',
    '# On-call handbook\n\nWhen paged, acknowledge within five minutes and open an incident channel.',
  );
  fx.ws.write('docs/running.md', '# Runner setup\n\nThe runners were running jobs all night.');
  // 100 strong matches crowd the 80 keyword candidates, so a filter applied after the cut would lose the notes.
  for (let i = 0; i < 100; i++)
    fx.ws.write(
      `docs/filler-${i}.md`,
      `# Database filler ${i}\n\nDatabase migration notes number ${i} about database schemas.`,
    );
  for (let i = 0; i < 5; i++) fx.ws.write(`notes/note-${i}.md`, `# Note ${i}\n\nA passing mention of a database.`);
  await fx.sync();
});
after(() => fx.close());

const run = async (input: Record<string, unknown>) => {
  const params = parseSearchParams(input, fx.kbctx.config.retrieval);
  return (await search(fx.kbctx.index.searchDeps(), params)).results;
};

describe('keyword search', () => {
  it('answers a natural-language question without requiring every word', async () => {
    const results = await run({ query: 'how do I rotate our signing keys safely?' });
    assert.equal(results[0]?.sourceId, 'rotate-keys.md');
    assert.ok(
      results.some((r) => r.sourceId === 'deploy.md'),
      'a document with only some of the words still matches',
    );
  });

  it('stems: "run" finds "running" and "runners"', async () => {
    const results = await run({ query: 'run' });
    assert.equal(results[0]?.sourceId, 'running.md');
  });

  it('weights the title', async () => {
    const results = await run({ query: 'handbook' });
    assert.equal(results[0]?.sourceId, 'oncall.md');
  });

  it('returns scores in [0, 1], best first, and a snippet around the match', async () => {
    const results = await run({ query: 'database schemas migration', limit: 30 });
    assert.ok(results.length > 10);
    for (let i = 0; i < results.length; i++) {
      const r = results[i]!;
      assert.ok(r.score >= 0 && r.score <= 1, `score ${r.score}`);
      if (i > 0) assert.ok(results[i - 1]!.score >= r.score);
      assert.ok(r.snippet.length <= 245);
    }
    assert.match(results[0]!.snippet, /database/i);
  });

  it('breaks ties deterministically', async () => {
    const a = await run({ query: 'filler database', limit: 60 });
    const b = await run({ query: 'filler database', limit: 60 });
    assert.deepEqual(
      a.map((r) => r.id),
      b.map((r) => r.id),
    );
  });

  it('never fails on FTS5 operator characters', async () => {
    for (const query of [
      '"unbalanced',
      'AND OR NOT',
      'NEAR(keys, 2)',
      'keys*',
      'col:keys',
      '(((',
      '-keys +deploy',
      "keys' OR 1=1 --",
    ]) {
      await assert.doesNotReject(run({ query }), `query ${query}`);
    }
    const results = await run({ query: 'signing AND "keys' });
    assert.equal(results[0]?.sourceId, 'rotate-keys.md');
  });

  it('filters by connector label or type before the cut', async () => {
    const label = await run({ query: 'database', source: 'filesystem:notes', limit: 5 });
    assert.equal(label.length, 5, 'a filtered search still returns up to limit results');
    assert.ok(label.every((r) => r.source === 'filesystem:notes'));
    const unfiltered = await run({ query: 'database', limit: 80 });
    assert.ok(
      unfiltered.every((r) => r.source === 'filesystem:docs'),
      'without the filter the notes rank below the cut',
    );
    const type = await run({ query: 'database', source: 'filesystem', limit: 100 });
    assert.equal(type.length, 100);
    assert.deepEqual(await run({ query: 'database', source: 'git' }), []);
  });

  it('defaults the limit to final_limit and caps it at max_limit', async () => {
    assert.equal((await run({ query: 'database' })).length, 12);
    const capped = parseSearchParams({ query: 'x', limit: 1000 }, fx.kbctx.config.retrieval);
    assert.equal(capped.limit, 100);
  });

  it('rejects bad parameters naming them', () => {
    const bad = (input: unknown, pattern: RegExp): void => {
      assert.throws(
        () => parseSearchParams(input, fx.kbctx.config.retrieval),
        (e: unknown) => e instanceof KbctxError && e.code === 'bad_request' && pattern.test(e.message),
      );
    };
    bad({ query: '   ' }, /'query' must not be empty/);
    bad({}, /missing required parameter 'query'/);
    bad({ query: 'x', mode: 'fuzzy' }, /'mode' must be one of "keyword", "semantic", "hybrid"/);
    bad({ query: 'x', limit: 0 }, /'limit' must be a positive integer/);
    bad({ query: 'x', limit: 2.5 }, /'limit' must be an integer/);
    bad([], /parameters must be a JSON object/);
  });

  it('asks for embeddings in semantic and hybrid mode', async () => {
    await assert.rejects(
      run({ query: 'keys', mode: 'semantic' }),
      (e: unknown) =>
        e instanceof KbctxError && e.code === 'embeddings_not_configured' && /kbctx embed pending/.test(e.message),
    );
  });

  it('returns nothing (not an error) for a query of unknown words', async () => {
    assert.deepEqual(await run({ query: 'xylophone quasar' }), []);
  });
});

describe('search cache', () => {
  it('answers a repeated search from the cache until the index changes', async () => {
    const deps = fx.kbctx.index.searchDeps();
    assert.ok(deps.cache);
    const params = parseSearchParams({ query: 'zebra stripes' }, fx.kbctx.config.retrieval);
    const first = await search(deps, params);
    const hits = deps.cache.hits;
    assert.deepEqual(await search(deps, params), first);
    assert.equal(deps.cache.hits, hits + 1);
    fx.ws.write('docs/zebra.md', '# Zebra stripes\n\nWhy zebras have stripes.');
    await fx.sync();
    const after = await search(deps, params);
    assert.equal(after.results[0]?.sourceId, 'zebra.md', 'a write invalidates cached responses');
  });
});
