// Which plugin an error outside any hook came from, read from its stack (ADR 0142).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pluginOfError, stackFiles } from '../../../plugins/cli/commands/fault-attribution.ts';

const errorAt = (...frames: string[]): { stack: string } => ({
  stack: ['Error: boom', ...frames.map((f) => `    at ${f}`)].join('\n'),
});
const ROOT = '/opt/app/node_modules/kbctx';
const plugins = [
  { name: 'acme', entry: '/proj/plugins/acme/index.ts' },
  { name: 'solo', entry: '/proj/plugins/solo.ts' },
  { name: 'twin', entry: '/proj/plugins/twin.ts' },
  { name: 'next-to-kbctx', entry: '/opt/app/local.mjs' },
];

describe('fault attribution', () => {
  it('reads the file of each frame: plain paths, file URLs, anonymous frames; node: frames dropped', () => {
    const stack = errorAt(
      'Timeout._onTimeout (file:///proj/plugins/acme/timer.mjs:3:9)',
      'listOnTimeout (node:internal/timers:588:17)',
      '/proj/x.ts:1:2',
      'async Promise.all (index 0)',
    ).stack;
    assert.deepEqual(stackFiles(stack), ['/proj/plugins/acme/timer.mjs', '/proj/x.ts']);
  });

  it(
    "a frame in a plugin's folder (its entry's folder, below " + 'too) names that plugin; the first such frame wins',
    () => {
      assert.equal(
        pluginOfError(
          errorAt('tick (/proj/plugins/acme/lib/timer.ts:3:9)', 'listOnTimeout (node:internal/timers:588:17)'),
          plugins,
          ROOT,
        ),
        'acme',
      );
      assert.equal(
        pluginOfError(
          errorAt('run (/opt/app/node_modules/kbctx/core/app/sync.ts:1:1)', 'cb (/proj/plugins/acme/index.ts:9:1)'),
          plugins,
          ROOT,
        ),
        'acme',
      );
    },
  );

  it('the deepest folder wins; in a folder two plugins share, only an entry file counts', () => {
    assert.equal(pluginOfError(errorAt('f (/proj/plugins/acme/index.ts:1:1)'), plugins, ROOT), 'acme');
    assert.equal(pluginOfError(errorAt('f (/proj/plugins/solo.ts:1:1)'), plugins, ROOT), 'solo');
    assert.equal(pluginOfError(errorAt('f (/proj/plugins/twin.ts:1:1)'), plugins, ROOT), 'twin');
    assert.equal(pluginOfError(errorAt('f (/proj/plugins/shared-helper.ts:1:1)'), plugins, ROOT), undefined);
  });

  it("kbctx's own files never count for a plugin whose folder holds kbctx; no stack, no plugin", () => {
    assert.equal(
      pluginOfError(errorAt('f (/opt/app/node_modules/kbctx/core/kernel.ts:1:1)'), plugins, ROOT),
      undefined,
    );
    assert.equal(pluginOfError(errorAt('f (/opt/app/local.mjs:1:1)'), plugins, ROOT), 'next-to-kbctx');
    assert.equal(pluginOfError('a string', plugins, ROOT), undefined);
    assert.equal(pluginOfError(undefined, plugins, ROOT), undefined);
  });
});
