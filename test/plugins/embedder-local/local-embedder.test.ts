// The bundled local model really loads from node_modules (no network) and carries meaning; a model
// folder that is not there fails at once with a config error.
import { KbctxError } from '../../../core/index.ts';
import { dotAt } from '../../../plugins/store-sqlite/api.ts';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LocalEmbedder } from '../../../plugins/embedder-local/local-embedder.ts';

describe('LocalEmbedder', () => {
  it('embeds with the bundled Universal Sentence Encoder Lite: similar texts score higher', async () => {
    const e = new LocalEmbedder({ model: 'use-lite', dims: null, batchSize: 8 });
    assert.equal(e.model, 'local:use-lite');
    const [cat, feline, money] = await e.embed([
      'The cat sat on the mat.',
      'A feline rested on a rug.',
      'Quarterly earnings beat forecasts.',
    ]);
    assert.equal(cat?.length, 512);
    const sim = (a?: Float32Array, b?: Float32Array): number => dotAt(a as Float32Array, 0, b as Float32Array, 512);
    assert.ok(sim(cat, feline) > sim(cat, money) + 0.2, `${sim(cat, feline)} vs ${sim(cat, money)}`);
  });

  it('fails fast on a model folder that does not exist', () => {
    assert.throws(
      () => new LocalEmbedder({ model: '/nonexistent/model', dims: null, batchSize: 8 }),
      (e: unknown) => e instanceof KbctxError && e.code === 'config_error' && /never downloads/.test(e.message),
    );
  });

  it('rejects dims that the bundled model cannot produce', () => {
    assert.throws(() => new LocalEmbedder({ model: 'use-lite', dims: 384, batchSize: 8 }), /512-dimensional/);
  });
});

describe('Context Harness local model names', () => {
  it('say which providers work offline and how to run the same model', async () => {
    const { createLocalEmbedder } = await import('../../../plugins/embedder-local/create-local-embedder.ts');
    const config = {
      provider: 'local',
      model: 'all-minilm-l6-v2',
      dims: null,
      batchSize: 8,
      concurrency: 1,
      extra: {},
      baseDir: '/',
      env: {},
    } as const;
    assert.throws(
      () => createLocalEmbedder(config),
      (e: unknown) =>
        e instanceof KbctxError &&
        e.code === 'config_error' &&
        /never downloads/.test(e.message) &&
        /provider = "local"/.test(e.message) &&
        /model = "all-minilm", dims = 384/.test(e.message),
    );
  });
});
