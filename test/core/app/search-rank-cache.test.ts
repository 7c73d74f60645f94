// Ranked pages in the search cache (ADR 0197): cached only when every `rank` tap names a cache-key part, and
// not when a tap marks the call uncacheable. Real index (IndexFixture), real plugins applied to its kernel.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseSearchParams } from '../../../plugins/tools-builtin/search-params.ts';
import { search } from '../../../core/app/search.ts';
import { definePlugin, type Plugin } from '../../../core/plugin.ts';
import { PluginError } from '../../../core/plugin-error.ts';
import { Kernel } from '../../../core/kernel.ts';
import { pipelineOf } from '../../../core/app/plugin-pipeline.ts';
import { IndexFixture } from '../../helpers/index-fixture.ts';

const fx = new IndexFixture();
before(async () => {
  for (let i = 1; i <= 3; i++) fx.ws.write(`docs/d${i}.md`, `# Doc ${i}\n\n${'kiwi '.repeat(5 - i)}fruit\n`);
  await fx.sync();
});
after(() => fx.close());

const plugin = (name: string, apply: Plugin['apply']): Plugin =>
  definePlugin({ name, version: '1.0.0', kbctx: '^0.2', apply });
const run = async (input: Record<string, unknown> = {}): Promise<string[]> => {
  const params = parseSearchParams({ query: 'kiwi', ...input }, fx.kbctx.config.retrieval);
  return (await search(fx.kbctx.index.searchDeps(), params)).results.map((r) => r.title);
};

describe('ranked pages and the search cache', () => {
  it(
    'a tap with a cacheKey is asked once per key; uncacheable() ' + 'keeps its page out; a tap without one always runs',
    async () => {
      const calls = { keyed: 0, plain: 0 };
      let failing = false;
      fx.kbctx.kernel.applySync(
        plugin('keyed', (k) =>
          k.hooks.rank.tapPromise(
            { name: 'keyed', cacheKey: (request) => (request.rerank === false ? 'off' : 'v1') },
            async (hits, _request, _ctx, control) => {
              calls.keyed++;
              if (failing) control.uncacheable('the model is down');
              return [...hits].reverse();
            },
          ),
        ),
        {},
        'path',
        'keyed',
      );
      assert.deepEqual(await run(), ['Doc 3', 'Doc 2', 'Doc 1']);
      await run();
      assert.equal(calls.keyed, 1, 'the second search is a cache hit');
      await run({ rerank: false });
      assert.equal(calls.keyed, 2, "the tap's part differs: another entry");

      failing = true;
      await run({ limit: 2 });
      await run({ limit: 2 });
      assert.equal(calls.keyed, 4, 'an uncacheable page is computed again');

      fx.kbctx.kernel.applySync(
        plugin('plain', (k) =>
          k.hooks.rank.tap('plain', (hits) => {
            calls.plain++;
            return hits;
          }),
        ),
        {},
        'path',
        'plain',
      );
      failing = false;
      await run();
      await run();
      assert.deepEqual([calls.keyed, calls.plain], [6, 2], 'a tap without a cacheKey: no ranked page is cached');
    },
  );

  it('a cacheKey that throws fails naming the plugin and the hook', () => {
    const kernel = new Kernel({ logger: () => ({ info() {}, warn() {}, debug() {} }) });
    kernel.applySync(
      plugin('badkey', (k) =>
        k.hooks.rank.tap(
          {
            name: 'badkey',
            cacheKey: () => {
              throw new Error('no key today');
            },
          },
          (hits) => hits,
        ),
      ),
      {},
      'path',
      'badkey',
    );
    const request = parseSearchParams({ query: 'kiwi' }, fx.kbctx.config.retrieval);
    assert.throws(
      () => pipelineOf(kernel).rankCacheKey?.(request),
      (e: unknown) => e instanceof PluginError && e.plugin === 'badkey' && /hook rank.*no key today/s.test(e.message),
    );
  });
});
