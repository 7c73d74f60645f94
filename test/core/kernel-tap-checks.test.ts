// The kernel's checks on taps (issue 30): each pipeline hook's result shape, the item a failing call
// was about, and misspelt hook names refused with the nearest one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Kernel } from '../../core/kernel.ts';
import { PluginError } from '../../core/plugin-error.ts';
import { definePlugin, type Plugin } from '../../core/plugin.ts';
import type { DocumentDraft } from '../../core/hook-types.ts';
import { joinedRegExp } from '../helpers/joined-regexp.ts';

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
const call = { name: 'echo', params: {} };

describe('tap results are checked per hook', () => {
  it('a document tap returning a draft without a string body names what it got', async () => {
    const kernel = new Kernel(quiet);
    kernel.applySync(
      plugin('p', (k) => k.hooks.document.tap('p', (d) => ({ ...d, body: 3 }) as never)),
      {},
      'path',
      'x',
    );
    await assert.rejects(
      kernel.hooks.document.promise(draft(), kernel.callContext()),
      (e: unknown) =>
        e instanceof PluginError &&
        e.code === 'plugin_error' &&
        e.item === "document 'a.md'" &&
        e.message.startsWith(
          "plugin 'p' returned an object whose body is a number (3) from hook document: expected a document draft",
        ),
    );
  });

  it('a synchronous tap returning a promise is told to use tapPromise', async () => {
    const kernel = new Kernel(quiet);
    kernel.applySync(
      plugin('p', (k) => k.hooks.document.tap('p', (d) => Promise.resolve(d) as never)),
      {},
      'path',
      'x',
    );
    await assert.rejects(
      kernel.hooks.document.promise(draft(), kernel.callContext()),
      /returned a promise \(an async tap is registered with tapPromise\) from hook document/,
    );
  });

  it('undefined keeps the value and skip: true needs no title or body', async () => {
    const kernel = new Kernel(quiet);
    kernel.applySync(
      plugin('p', (k) =>
        k.hooks.document.tap('p', (d) => (d.sourceId === 'a.md' ? (undefined as never) : ({ skip: true } as never))),
      ),
      {},
      'path',
      'x',
    );
    assert.equal((await kernel.hooks.document.promise(draft(), kernel.callContext())).body, 'body');
    assert.equal(
      (await kernel.hooks.document.promise({ ...draft(), sourceId: 'b.md' }, kernel.callContext())).skip,
      true,
    );
  });

  it('a toolResult tap returning a function, and a throwing toolCall tap, name the tool', async () => {
    const kernel = new Kernel(quiet);
    kernel.applySync(
      plugin('r', (k) => k.hooks.toolResult.tap('r', () => (() => 1) as never)),
      {},
      'path',
      'x',
    );
    kernel.applySync(
      plugin('c', (k) => k.hooks.toolCall.tapPromise('c', () => Promise.reject(new Error('refused')))),
      {},
      'path',
      'y',
    );
    await assert.rejects(
      kernel.hooks.toolResult.promise({}, call, kernel.callContext()),
      joinedRegExp(
        /^PluginError: plugin 'r' returned a function from hook toolResult: expected a /,
        /JSON value \(the result\), or undefined to keep it \(on tool 'echo'\)$/,
      ),
    );
    await assert.rejects(
      kernel.hooks.toolCall.promise(call, kernel.callContext()),
      (e: unknown) =>
        e instanceof PluginError &&
        e.item === "tool 'echo'" &&
        e.message === "plugin 'c' failed in hook toolCall: refused (on tool 'echo')",
    );
  });

  it('an extract tap returning a string names the file', async () => {
    const kernel = new Kernel(quiet);
    kernel.applySync(
      plugin('x', (k) => k.hooks.extract.for('pdf').tap('x', () => 'text' as never)),
      {},
      'path',
      'x',
    );
    const request = { bytes: new Uint8Array(), fileName: 'a.pdf', extension: 'pdf', maxFileBytes: 1 };
    await assert.rejects(
      kernel.hooks.extract.for('pdf').promise(request, kernel.callContext()),
      joinedRegExp(
        /plugin 'x' returned a string \("text"\) from hook extract\.for\("pdf"\): /,
        /expected an object with a string text.* \(on file 'a\.pdf'\)$/,
      ),
    );
  });
});

describe('misspelt hook names', () => {
  it('reading an unknown hook fails apply with the nearest name; `in` feature tests still work', () => {
    const kernel = new Kernel(quiet);
    assert.throws(
      () =>
        kernel.applySync(
          plugin('t', (k) => (k.hooks as unknown as Record<string, { tap(): void }>)['toolresult']!.tap()),
          {},
          'path',
          'x',
        ),
      /plugin 't': apply failed: unknown hook 'toolresult'; did you mean 'toolResult'\?/,
    );
    let probed: boolean[] = [];
    kernel.applySync(
      plugin('f', (k) => void (probed = ['futureHook' in k.hooks, 'rank' in k.hooks])),
      {},
      'path',
      'y',
    );
    assert.deepEqual(probed, [false, true]);
  });

  it('a name far from every hook gets no suggestion', () => {
    const kernel = new Kernel(quiet);
    assert.throws(
      () =>
        kernel.applySync(
          plugin('t', (k) => void (k.hooks as unknown as Record<string, unknown>)['zzz']),
          {},
          'path',
          'x',
        ),
      (e: Error) => /unknown hook 'zzz' \(hooks: /.test(e.message) && !/did you mean/.test(e.message),
    );
  });
});
