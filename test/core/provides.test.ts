// What `kbctx plugins` says a plugin provides is derived from what it really did (ADR 0180): keys it
// tapped, commands its `commands` tap names, services, and the tools/agents/resources it adds; a
// declared `provides` is checked against that. And a tap's own name shows in its errors.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Kernel } from '../../core/kernel.ts';
import { PluginError } from '../../core/plugin-error.ts';
import { definePlugin, type Plugin } from '../../core/plugin.ts';
import { createServiceRef } from '../../core/services.ts';
import type { DocumentDraft } from '../../core/hook-types.ts';

const quiet = { logger: () => ({ info() {}, warn() {}, debug() {} }) };
const plugin = (name: string, apply: Plugin['apply'], provides?: string[]): Plugin =>
  definePlugin({ name, version: '1.0.0', kbctx: '^0.2', apply, ...(provides ? { provides } : {}) });
const infoOf = (kernel: Kernel, name: string) => kernel.plugins({ collect: true }).find((p) => p.name === name)!;

describe('derived provides', () => {
  it(
    'a plugin that declares nothing but taps createConnector.for("x") ' +
      'and adds tool "y" provides connector:x and tool:y',
    () => {
      const kernel = new Kernel(quiet);
      kernel.applySync(
        plugin('quiet-one', (k) => {
          k.hooks.createConnector.for('x').tapPromise('quiet-one', async () => ({ scan: async function* () {} }));
          k.hooks.tools.tap('quiet-one', (tools) => tools.add({ name: 'y', call: () => 1 }));
        }),
        {},
        'path',
        'p',
      );
      assert.deepEqual(infoOf(kernel, 'quiet-one').provides, ['connector:x', 'tool:y']);
      assert.deepEqual(
        kernel.plugins().find((p) => p.name === 'quiet-one')!.provides,
        ['connector:x'],
        'tools only when collected',
      );
    },
  );

  it('a declared tool it does not add (email_check for email_check4) is reported, and the real name is shown', () => {
    const kernel = new Kernel(quiet);
    kernel.applySync(
      plugin('mail', (k) => k.hooks.tools.tap('mail', (tools) => tools.add({ name: 'email_check4', call: () => 1 })), [
        'tool:email_check',
      ]),
      {},
      'path',
      'p',
    );
    const info = infoOf(kernel, 'mail');
    assert.deepEqual(info.provides, ['tool:email_check4']);
    assert.deepEqual(info.notProvided, ['tool:email_check']);
    assert.deepEqual(info.declared, ['tool:email_check']);
  });

  it(
    'keyed factories, named commands, services, agents and ' +
      'resources; kinds the kernel cannot see stay as declared',
    () => {
      const kernel = new Kernel(quiet);
      const ref = createServiceRef<number>('acme.count');
      kernel.applySync(
        plugin(
          'acme',
          (k) => {
            k.hooks.createStore.for('acme-db').tap('acme', () => undefined);
            k.hooks.createEmbedder.for('acme').tap('acme', () => undefined);
            k.hooks.createTransport.for('acme').tapPromise('acme', async () => undefined);
            k.hooks.extract.for('rtf').tapPromise('acme', async () => undefined);
            k.hooks.commands.tap({ name: 'acme', commands: ['acme-hello'] }, () => {});
            k.hooks.agents.tap('acme', (agents) =>
              agents.add({ name: 'helper', resolve: () => ({ system: '', messages: [] }) }),
            );
            k.hooks.resources.tap('acme', (resources) =>
              resources.add({ uriTemplate: 'acme://t/{id}', name: 'ticket', read: () => ({ text: '' }) }),
            );
            k.provide(ref, 1);
          },
          ['route:GET /acme', 'tool:acme_*', 'store:acme-db'],
        ),
        {},
        'path',
        'p',
      );
      const info = infoOf(kernel, 'acme');
      assert.deepEqual(info.provides, [
        'store:acme-db',
        'embedder:acme',
        'transport:acme',
        'format:rtf',
        'command:acme-hello',
        'service:acme.count',
        'agent:helper',
        'resource:acme://t/{id}',
        'route:GET /acme',
      ]);
      assert.deepEqual(info.notProvided, ['tool:acme_*'], 'a pattern matches by prefix, and here nothing');
    },
  );

  it('a commands tap that names no command leaves declared commands unchecked', () => {
    const kernel = new Kernel(quiet);
    kernel.applySync(
      plugin('subs', (k) => k.hooks.commands.tap('subs', () => {}), ['command:tool init']),
      {},
      'path',
      'p',
    );
    kernel.applySync(
      plugin('named', (k) => k.hooks.commands.tap({ name: 'named', commands: ['a'] }, () => {}), ['command:b']),
      {},
      'path',
      'q',
    );
    assert.deepEqual(
      [infoOf(kernel, 'subs').provides, infoOf(kernel, 'subs').notProvided],
      [['command:tool init'], []],
    );
    assert.deepEqual(
      [infoOf(kernel, 'named').provides, infoOf(kernel, 'named').notProvided],
      [['command:a'], ['command:b']],
    );
  });
});

describe('the tap name', () => {
  const draft: DocumentDraft = {
    source: 's',
    sourceId: 'a.md',
    title: 'A',
    body: 'b',
    sourceUrl: null,
    contentType: 'text/plain',
    updatedAt: '2026-01-01T00:00:00Z',
    metadata: {},
  };

  it('a tap named otherwise than its plugin is attributed to the plugin, and its name shows in the error', async () => {
    const kernel = new Kernel(quiet);
    kernel.applySync(
      plugin('acme', (k) => k.hooks.document.tapPromise('acme-redact', () => Promise.reject(new Error('kaput')))),
      {},
      'path',
      'p',
    );
    await assert.rejects(
      kernel.hooks.document.promise(draft, kernel.callContext()),
      (e: unknown) =>
        e instanceof PluginError &&
        e.plugin === 'acme' &&
        e.tap === 'acme-redact' &&
        /^plugin 'acme' \(tap 'acme-redact'\) failed in hook document: kaput/.test(e.message),
    );
    assert.deepEqual(
      kernel.plugins().map((p) => [p.name, p.hooks]),
      [['acme', ['document']]],
    );
  });

  it('a wrong result names the tap too; a tap named like its plugin adds nothing', async () => {
    const kernel = new Kernel(quiet);
    kernel.applySync(
      plugin('acme', (k) => {
        k.hooks.chunk.tapPromise('acme-split', async () => 'not a list' as never);
      }),
      {},
      'path',
      'p',
    );
    await assert.rejects(
      kernel.hooks.chunk.promise(
        { document: draft, sizes: { maxTokens: 10, overlapTokens: 0 } } as never,
        kernel.callContext(),
      ),
      /^PluginError: plugin 'acme' \(tap 'acme-split'\) returned/,
    );
    const other = new Kernel(quiet);
    other.applySync(
      plugin('acme', (k) => k.hooks.document.tapPromise('acme', () => Promise.reject(new Error('kaput')))),
      {},
      'path',
      'p',
    );
    await assert.rejects(
      other.hooks.document.promise(draft, other.callContext()),
      (e: unknown) =>
        e instanceof PluginError && e.tap === undefined && /^plugin 'acme' failed in hook document/.test(e.message),
    );
  });
});
