// The kernel: tap attribution (errors name plugin and hook, falsy rejections fail, taps that never
// settle time out), plugin-scoped context, stages, services and LIFO disposal.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Kernel } from '../../core/kernel.ts';
import { PluginError } from '../../core/plugin-error.ts';
import { STAGE, definePlugin, type Plugin } from '../../core/plugin.ts';
import { createServiceRef } from '../../core/services.ts';
import { PerPluginCollector } from '../../core/collector.ts';
import type { DocumentDraft } from '../../core/hook-types.ts';

const quiet = { logger: () => ({ info() {}, warn() {}, debug() {} }) };
const draft = (): DocumentDraft => ({
  source: 's',
  sourceId: 'a.md',
  title: 'A',
  body: 'body',
  sourceUrl: null,
  contentType: 'text/plain',
  updatedAt: '2026-01-01T00:00:00Z',
  metadata: {},
});
const plugin = (name: string, apply: Plugin['apply']): Plugin =>
  definePlugin({ name, version: '1.0.0', kbctx: '^0.2', apply });

describe('kernel hooks', () => {
  it('an error thrown in a sync tap names the plugin and the hook', () => {
    const kernel = new Kernel(quiet);
    kernel.applySync(
      plugin('boom', (k) =>
        k.hooks.tools.tap('boom', () => {
          throw new Error('kaput');
        }),
      ),
      {},
      'path',
      'x',
    );
    assert.throws(
      () => kernel.hooks.tools.call(new PerPluginCollector(() => {})),
      (e: unknown) =>
        e instanceof PluginError &&
        e.plugin === 'boom' &&
        e.hook === 'tools' &&
        /plugin 'boom' failed in hook tools: kaput/.test(e.message),
    );
  });

  it('a rejection, even with a falsy reason, is an error naming plugin and hook, never success', async () => {
    const kernel = new Kernel(quiet);
    kernel.applySync(
      plugin('falsy', (k) => k.hooks.document.tapPromise('falsy', () => Promise.reject(undefined))),
      {},
      'path',
      'x',
    );
    await assert.rejects(
      kernel.hooks.document.promise(draft(), kernel.callContext()),
      (e: unknown) =>
        e instanceof PluginError &&
        e.plugin === 'falsy' &&
        e.hook === 'document' &&
        /rejected without a reason/.test(e.message),
    );
  });

  it('a tap that never settles fails after the hook time-out', async () => {
    const kernel = new Kernel({ ...quiet, tapTimeoutMs: { rank: 50 } });
    kernel.applySync(
      plugin('stuck', (k) => k.hooks.rank.tapPromise('stuck', () => new Promise(() => {}))),
      {},
      'path',
      'x',
    );
    const request = { query: 'q', mode: 'keyword' as const, limit: 5, source: undefined, explain: false };
    await assert.rejects(
      kernel.hooks.rank.promise([], request, kernel.callContext(), { uncacheable() {} }),
      (e: unknown) =>
        e instanceof PluginError && e.plugin === 'stuck' && /did not settle within 0.05 s/.test(e.message),
    );
  });

  it(
    'a promise tap that throws before returning rejects naming ' +
      'plugin and hook; one returning a plain value answers it',
    async () => {
      const kernel = new Kernel({ ...quiet, tapTimeoutMs: { query: 50 } });
      kernel.applySync(
        plugin('eager', (k) =>
          k.hooks.query.tapPromise('eager', ((request: { query: string }) => {
            if (request.query === 'boom') throw new Error('thrown at once');
            return { ...request, query: `${request.query}!` };
          }) as never),
        ),
        {},
        'path',
        'x',
      );
      const request = { query: 'q', mode: 'keyword' as const, limit: 5, source: undefined, explain: false };
      const called = kernel.hooks.query.promise({ ...request, query: 'boom' }, kernel.callContext());
      assert.ok(called instanceof Promise);
      await assert.rejects(
        called,
        (e: unknown) =>
          e instanceof PluginError && e.plugin === 'eager' && e.hook === 'query' && /thrown at once/.test(e.message),
      );
      assert.equal((await kernel.hooks.query.promise(request, kernel.callContext())).query, 'q!');
    },
  );

  it("a tap's own `timeout` (s) replaces the hook's time-out", async () => {
    const kernel = new Kernel({ ...quiet, tapTimeoutMs: { boot: 60_000 } });
    kernel.applySync(
      plugin('slow-boot', (k) =>
        k.hooks.boot.tapPromise({ name: 'slow-boot', timeout: 0.05 }, () => new Promise(() => {})),
      ),
      {},
      'path',
      'x',
    );
    await assert.rejects(
      kernel.hooks.boot.promise(kernel.callContext()),
      (e: unknown) => e instanceof PluginError && e.hook === 'boot' && /did not settle within 0.05 s/.test(e.message),
    );
  });

  it('keyed factories are attributed with their key', async () => {
    const kernel = new Kernel(quiet);
    kernel.applySync(
      plugin('acme', (k) =>
        k.hooks.createConnector.for('tickets').tapPromise('acme', () => Promise.reject(new Error('no token'))),
      ),
      {},
      'path',
      'x',
    );
    await assert.rejects(
      kernel.hooks.createConnector
        .for('tickets')
        .promise({ type: 'tickets', name: 'a', options: {}, dataDir: '/tmp', baseDir: '/tmp' }, kernel.callContext()),
      /plugin 'acme' failed in hook createConnector\.for\("tickets"\): no token/,
    );
    assert.deepEqual(kernel.plugins()[0]!.hooks, ['createConnector.for("tickets")']);
  });

  it('each tap gets its own plugin context; waterfall taps run by stage, defaults last', async () => {
    const kernel = new Kernel(quiet);
    const seen: string[] = [];
    kernel.applySync(
      plugin('fallback', (k) =>
        k.hooks.document.tap(
          { name: 'fallback', stage: STAGE.FALLBACK },
          (d, ctx) => (seen.push(ctx.plugin), { ...d, body: `${d.body}+fallback` }),
        ),
      ),
      {},
      'bundled',
      'x',
    );
    kernel.applySync(
      plugin('user', (k) =>
        k.hooks.document.tapPromise(
          'user',
          async (d, ctx) => (seen.push(ctx.plugin), { ...d, body: `${d.body}+user` }),
        ),
      ),
      {},
      'path',
      'y',
    );
    const out = await kernel.hooks.document.promise(draft(), kernel.callContext());
    assert.equal(out.body, 'body+user+fallback');
    assert.deepEqual(seen, ['user', 'fallback']);
  });

  it('collectors record which plugin added each item', () => {
    const kernel = new Kernel(quiet);
    kernel.applySync(
      plugin('a', (k) => k.hooks.tools.tap('a', (tools) => tools.add({ name: 'x', call: () => 1 }))),
      {},
      'path',
      'x',
    );
    kernel.applySync(
      plugin('b', (k) => k.hooks.tools.tap('b', (tools) => tools.add({ name: 'y', call: () => 2 }))),
      {},
      'path',
      'y',
    );
    const added: string[] = [];
    kernel.hooks.tools.call(new PerPluginCollector((p, def) => added.push(`${p}:${def.name}`)));
    assert.deepEqual(added, ['a:x', 'b:y']);
  });
});

describe('kernel plugins', () => {
  it('services: provided once, used by others; a second provider is an error naming both', () => {
    const kernel = new Kernel(quiet);
    const ref = createServiceRef<{ hello(): string }>('greeter');
    kernel.applySync(
      plugin('provider', (k) => k.provide(ref, { hello: () => 'hi' })),
      {},
      'path',
      'x',
    );
    let got = '';
    kernel.applySync(
      plugin('user', (k) => {
        got = k.use(ref).hello();
      }),
      {},
      'path',
      'y',
    );
    assert.equal(got, 'hi');
    assert.throws(
      () =>
        kernel.applySync(
          plugin('again', (k) => k.provide(ref, { hello: () => 'x' })),
          {},
          'path',
          'z',
        ),
      /plugin 'again': apply failed: plugin 'again' provides service 'greeter', already provided by plugin 'provider'/,
    );
    assert.deepEqual(kernel.plugins().find((p) => p.name === 'provider')!.provides, ['service:greeter']);
  });

  it('an apply that throws is a config error naming the plugin; an async apply that never ends times out', async () => {
    const kernel = new Kernel(quiet);
    await assert.rejects(
      kernel.apply(
        plugin('thrower', () => {
          throw new Error('bad apply');
        }),
        {},
        'path',
        'x',
      ),
      (e: unknown) =>
        (e as { code?: string }).code === 'config_error' &&
        /plugin 'thrower': apply failed: bad apply/.test((e as Error).message),
    );
  });

  it('shutdown runs the hook, then disposers last in, first out', async () => {
    const kernel = new Kernel(quiet);
    const order: string[] = [];
    kernel.applySync(
      plugin('one', (k) => {
        k.onDispose(() => void order.push('one'));
        k.hooks.shutdown.tap('one', (r) => void order.push(`shutdown:${r}`));
      }),
      {},
      'path',
      'x',
    );
    kernel.applySync(
      plugin('two', (k) => k.onDispose(async () => void order.push('two'))),
      {},
      'path',
      'y',
    );
    await kernel.shutdown('test');
    assert.deepEqual(order, ['shutdown:test', 'two', 'one']);
  });
});
