// The per-document hook paths of a sync (ADR 0131): the chunk fast path for a single synchronous tap,
// the extraction look-up, the kernel's shared plugin contexts and the lazy text-extraction wrappers.
// Each keeps what the hook machinery guarantees: errors name plugin and hook, each tap gets its own context.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { Kernel } from '../../../core/kernel.ts';
import { PluginError } from '../../../core/plugin-error.ts';
import { STAGE, definePlugin, type Plugin } from '../../../core/plugin.ts';
import { pipelineOf } from '../../../core/app/plugin-pipeline.ts';
import { extractText, loadFileItem } from '../../../plugins/extract-text/api.ts';
import type { DocumentDraft } from '../../../core/hook-types.ts';
import type { PluginContext } from '../../../core/plugin-context.ts';

const quiet = { logger: () => ({ info() {}, warn() {}, debug() {} }) };
const plugin = (name: string, apply: Plugin['apply']): Plugin =>
  definePlugin({ name, version: '1.0.0', kbctx: '^0.2', apply });
const doc = (body: string): DocumentDraft & { id: string } => ({
  id: 'd1',
  source: 's',
  sourceId: 'a.md',
  title: 'A',
  body,
  sourceUrl: null,
  contentType: 'text/markdown',
  updatedAt: '2026-01-01T00:00:00Z',
  metadata: {},
});
const sizes = { maxTokens: 100, overlapTokens: 10 };

describe('the chunk hook as a sync calls it', () => {
  it('one synchronous tap: its chunks, its own context, and a throw names the plugin and the hook', async () => {
    const kernel = new Kernel(quiet);
    const seen: string[] = [];
    kernel.applySync(
      plugin('splitter', (k) =>
        k.hooks.chunk.tap('splitter', (request, ctx) => {
          seen.push(ctx.plugin);
          if (request.document.body === 'boom') throw new Error('cannot split');
          return request.document.body.split(' ');
        }),
      ),
      {},
      'path',
      'x',
    );
    const { chunk } = pipelineOf(kernel);
    assert.deepEqual(await chunk!(doc('a b'), sizes), ['a', 'b']);
    await assert.rejects(
      async () => chunk!(doc('boom'), sizes),
      (e: unknown) =>
        e instanceof PluginError && e.plugin === 'splitter' && e.hook === 'chunk' && /cannot split/.test(e.message),
    );
    assert.deepEqual(seen, ['splitter', 'splitter']);
  });

  it(
    'taps added after the pipeline was made take part (bail in ' + 'stage order), and a falsy rejection is an error',
    async () => {
      const kernel = new Kernel(quiet);
      const { chunk } = pipelineOf(kernel);
      assert.equal(await chunk!(doc('x'), sizes), undefined); // no chunker: the sync reports it
      kernel.applySync(
        plugin('fallback', (k) => k.hooks.chunk.tap({ name: 'fallback', stage: STAGE.FALLBACK }, () => ['fallback'])),
        {},
        'bundled',
        'x',
      );
      assert.deepEqual(await chunk!(doc('x'), sizes), ['fallback']);
      kernel.applySync(
        plugin('first', (k) =>
          k.hooks.chunk.tapPromise('first', async (r) => (r.document.body === 'mine' ? ['first'] : undefined)),
        ),
        {},
        'path',
        'y',
      );
      assert.deepEqual(await chunk!(doc('mine'), sizes), ['first']);
      assert.deepEqual(await chunk!(doc('other'), sizes), ['fallback']);
      kernel.applySync(
        plugin('falsy', (k) => k.hooks.chunk.tapPromise({ name: 'falsy', stage: -1 }, () => Promise.reject(0))),
        {},
        'path',
        'z',
      );
      await assert.rejects(
        chunk!(doc('x'), sizes),
        (e: unknown) => e instanceof PluginError && e.plugin === 'falsy' && /rejected with 0/.test(e.message),
      );
    },
  );

  it(
    'walks promise, callback and sync taps in stage order; a ' + "tracer interceptor keeps the hook's own path",
    async () => {
      const kernel = new Kernel(quiet);
      const order: string[] = [];
      kernel.applySync(
        plugin('mixed', (k) => {
          k.hooks.chunk.tapPromise({ name: 'code', stage: STAGE.LATE }, async (r) => {
            order.push('code');
            return r.document.sourceId.endsWith('.ts') ? ['code'] : undefined;
          });
          k.hooks.chunk.tapAsync({ name: 'callback', stage: STAGE.LATE + 1 }, (r, _ctx, done) => {
            order.push('callback');
            if (r.document.body === 'late boom') done(new Error('callback failed'));
            else done(null, r.document.body === 'cb' ? ['callback'] : undefined);
          });
          k.hooks.chunk.tap({ name: 'text', stage: STAGE.FALLBACK }, (r) => {
            order.push('text');
            if (r.document.body === 'boom') throw new Error('text failed');
            return [r.document.body];
          });
        }),
        {},
        'path',
        'm',
      );
      const { chunk } = pipelineOf(kernel);
      assert.deepEqual(await chunk!({ ...doc('x'), sourceId: 'a.ts' }, sizes), ['code']);
      assert.deepEqual(order, ['code']);
      assert.deepEqual(await chunk!(doc('cb'), sizes), ['callback']);
      assert.deepEqual(await chunk!(doc('plain'), sizes), ['plain']);
      assert.deepEqual(order, ['code', 'code', 'callback', 'code', 'callback', 'text']);
      await assert.rejects(
        chunk!(doc('boom'), sizes),
        (e: unknown) =>
          e instanceof PluginError && e.plugin === 'mixed' && e.tap === 'text' && /text failed/.test(e.message),
      );
      await assert.rejects(
        chunk!(doc('late boom'), sizes),
        (e: unknown) => e instanceof PluginError && e.tap === 'callback' && /callback failed/.test(e.message),
      );
      const calls: string[] = [];
      kernel.hooks.chunk.intercept({ call: (request) => void calls.push(request.document.body) });
      assert.deepEqual(await chunk!(doc('traced'), sizes), ['traced']);
      assert.deepEqual(calls, ['traced']);
    },
  );
});

describe('file extraction through extract.for(extension)', () => {
  it(
    'an extension no plugin taps answers undefined; a tap ' + 'answers; its failure names plugin and keyed hook',
    async () => {
      const kernel = new Kernel(quiet);
      const pipeline = pipelineOf(kernel);
      const extraction = (r: Parameters<typeof pipeline.extract>[0]) => pipeline.extract(r);
      const request = (extension: string) => ({
        bytes: new TextEncoder().encode('x'),
        fileName: `a.${extension}`,
        extension,
        maxFileBytes: 100,
      });
      assert.equal(await extraction(request('md')), undefined);
      kernel.applySync(
        plugin('odt', (k) =>
          k.hooks.extract.for('odt').tapPromise('odt', async (r) => {
            if (r.bytes.length === 0) throw new Error('empty file');
            return { text: 'from odt' };
          }),
        ),
        {},
        'path',
        'x',
      );
      assert.deepEqual(await extraction(request('odt')), { text: 'from odt' });
      assert.equal(await extraction(request('md')), undefined);
      await assert.rejects(
        extraction({ ...request('odt'), bytes: new Uint8Array(0) }),
        (e: unknown) =>
          e instanceof PluginError &&
          e.plugin === 'odt' &&
          e.hook === 'extract.for("odt")' &&
          /empty file/.test(e.message),
      );
    },
  );
});

describe("the kernel's plugin contexts", () => {
  it(
    'one per plugin for the kernel signal, reused across calls; ' +
      'another signal gets its own; services resolve when called',
    async () => {
      const index: {
        services?: { search: () => Promise<unknown>; get: () => Promise<unknown>; sources: () => Promise<unknown> };
      } = {};
      const kernel = new Kernel({ ...quiet, services: () => index.services as never });
      const contexts: PluginContext[] = [];
      kernel.applySync(
        plugin('a', (k) => k.hooks.document.tap('a', (d, ctx) => (contexts.push(ctx), d))),
        {},
        'path',
        'x',
      );
      kernel.applySync(
        plugin('b', (k) => k.hooks.document.tap('b', (d, ctx) => (contexts.push(ctx), d))),
        {},
        'path',
        'y',
      );
      await kernel.hooks.document.promise(doc('x'), kernel.callContext());
      await kernel.hooks.document.promise(doc('x'), kernel.callContext());
      assert.deepEqual(
        contexts.map((c) => c.plugin),
        ['a', 'b', 'a', 'b'],
      );
      assert.equal(contexts[0], contexts[2]);
      assert.notEqual(contexts[0], contexts[1]);
      const aborted = new AbortController();
      aborted.abort();
      await kernel.hooks.document.promise(doc('x'), kernel.callContext(aborted.signal));
      assert.equal(contexts[4]!.plugin, 'a');
      assert.equal(contexts[4]!.signal.aborted, true);
      assert.equal(contexts[0]!.signal.aborted, false);
      // Built before the index was open, a context reaches the services once they are there.
      await assert.rejects(contexts[0]!.sources(), /the index is not open/);
      index.services = { search: async () => 'hits', get: async () => 'doc', sources: async () => ['s'] };
      assert.deepEqual(await contexts[0]!.sources(), ['s']);
    },
  );
});

describe('the lazy text-extraction wrappers of the public API', () => {
  it('read Markdown and plain text on every call (the module imported once)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'kbctx-lazy-text-'));
    try {
      const file = path.join(dir, 'a.md');
      writeFileSync(file, '# Title one\n\nBody text.\n');
      const like = (sourceId: string, bytes: Uint8Array) => ({
        sourceId,
        size: bytes.length,
        maxFileBytes: 1000,
        read: () => bytes,
        sourceUrl: `file://${file}`,
        updatedAt: undefined,
        metadata: { path: sourceId },
      });
      const [first, second] = await Promise.all([
        loadFileItem(like('a.md', new TextEncoder().encode('# Title one\n\nBody.\n'))),
        loadFileItem(like('b.md', new TextEncoder().encode('# Title two\n'))),
      ]);
      assert.equal(first.kind === 'item' && first.item.title, 'Title one');
      assert.equal(second.kind === 'item' && second.item.title, 'Title two');
      const third = await loadFileItem(like('c.md', new Uint8Array(2000)));
      assert.equal(third.kind, 'skipped');
      const text = await extractText('notes.txt', new TextEncoder().encode('plain'));
      assert.deepEqual(text, { ok: true, value: { body: 'plain', contentType: 'text/plain' } });
      const binary = await extractText('blob.txt', new Uint8Array([0, 1, 2]));
      assert.equal(binary.ok, false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the pipeline hooks a search and a tool call read', () => {
  it(
    'are absent while no plugin taps them, though the ' + 'attribution intercepts every hook (no deeper rank search)',
    async () => {
      const kernel = new Kernel(quiet);
      kernel.applySync(
        plugin('other', (k) => k.hooks.tools.tap('other', () => {})),
        {},
        'path',
        'x',
      );
      const pipeline = pipelineOf(kernel);
      assert.equal(kernel.hooks.rank.isUsed(), true, 'the attribution interceptor makes isUsed() true');
      assert.deepEqual(
        [pipeline.document, pipeline.query, pipeline.rank, pipeline.toolCall, pipeline.toolResult],
        [undefined, undefined, undefined, undefined, undefined],
      );
      kernel.applySync(
        plugin('ranker', (k) => k.hooks.rank.tapPromise('ranker', async (hits) => hits.slice(0, 1))),
        {},
        'path',
        'y',
      );
      assert.equal(typeof pipeline.rank, 'function', 'a plugin applied later takes part');
    },
  );
});
