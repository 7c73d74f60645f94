// Plugin-owned hooks (core/extension-point.ts, ADR 0160): a plugin's contract entry declares hooks the
// kernel creates once per kernel, attributed like its own; others tap them through the entry or by id.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { AsyncSeriesHook } from 'tapable';
import { Kernel } from '../../core/kernel.ts';
import { PluginError } from '../../core/plugin-error.ts';
import { definePlugin, type Plugin } from '../../core/plugin.ts';
import { defineExtensionPoint } from '../../core/extension-point.ts';
import { httpHooks, type HttpHooks } from '../../plugins/transport-http/api.ts';

const quiet = { logger: () => ({ info() {}, warn() {}, debug() {} }) };
const plugin = (name: string, apply: Plugin['apply']): Plugin =>
  definePlugin({ name, version: '1.0.0', kbctx: '^0.2', apply });
const point = defineExtensionPoint({
  id: 'owner',
  hooks: () => ({ routes: new AsyncSeriesHook<[string[]]>(['list'], 'routes') }),
  tapTimeoutMs: { routes: 50 },
});

it(
  'one set of hooks per kernel: the owner calls them, taps ' + 'are attributed (kbctx plugins, errors, time-outs)',
  async () => {
    const kernel = new Kernel(quiet);
    let calls: ReturnType<typeof point.hooks> | undefined;
    kernel.applySync(
      plugin('owner', (k) => void (calls = k.hooksOf(point))),
      {},
      'path',
      'x',
    );
    kernel.applySync(
      plugin('adds', (k) => k.hooksOf(point).routes.tap('adds', (list) => void list.push('a'))),
      {},
      'path',
      'x',
    );
    kernel.applySync(
      plugin('by-id', (k) =>
        k.hooksOf<typeof calls & object>('owner').routes.tap('by-id', (list) => void list.push('b')),
      ),
      {},
      'path',
      'x',
    );
    const list: string[] = [];
    await calls!.routes.promise(list);
    assert.deepEqual(list, ['a', 'b']);
    assert.deepEqual(kernel.plugins().find((p) => p.name === 'adds')?.hooks, ['routes']);
    assert.notEqual(new Kernel(quiet).hooksOf(point), calls, 'another kernel has its own');

    kernel.applySync(
      plugin('boom', (k) =>
        k.hooksOf(point).routes.tap('boom', () => {
          throw new Error('kaput');
        }),
      ),
      {},
      'path',
      'x',
    );
    await assert.rejects(
      calls!.routes.promise([]),
      (e: unknown) => e instanceof PluginError && e.plugin === 'boom' && e.hook === 'routes',
    );
    const stuck = new Kernel(quiet);
    stuck.applySync(
      plugin('stuck', (k) => k.hooksOf(point).routes.tapPromise('stuck', () => new Promise(() => {}))),
      {},
      'path',
      'x',
    );
    await assert.rejects(
      stuck.hooksOf(point).routes.promise([]),
      (e: unknown) => e instanceof PluginError && /did not settle within 0.05 s/.test(e.message),
    );
  },
);

it('asking by id before the owner declared them, or reading the hook off kernel.hooks, says where it is', () => {
  const kernel = new Kernel(quiet);
  assert.throws(
    () =>
      kernel.applySync(
        plugin('early', (k) => void k.hooksOf('transport-htp')),
        {},
        'path',
        'x',
      ),
    /no loaded plugin declares hooks 'transport-htp'/,
  );
  kernel.applySync(
    plugin('transport-http', (k) => void k.hooksOf(httpHooks)),
    {},
    'path',
    'x',
  );
  assert.throws(
    () =>
      kernel.applySync(
        plugin('typo', (k) => void k.hooksOf('transport-htp')),
        {},
        'path',
        'x',
      ),
    /did you mean 'transport-http'/,
  );
  assert.throws(
    () =>
      kernel.applySync(
        plugin('old', (k) => (k.hooks as unknown as HttpHooks).httpRoutes.tap('old', () => {})),
        {},
        'path',
        'x',
      ),
    /hook 'httpRoutes' is plugin 'transport-http's own: tap it through kernel.hooksOf\('transport-http'\).httpRoutes/,
  );
});
