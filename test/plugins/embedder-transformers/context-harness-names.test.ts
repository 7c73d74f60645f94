// Context Harness model names (provider "local"/"fastembed", `model = "bge-small-en-v1.5"` …) become
// the transformers embedder on the hub repo of the same weights, with the family's pooling and prefixes;
// a `dims` that disagrees is a config error naming both numbers. The model comes from a real cache
// folder (a tiny model and its manifest), through the real models service, offline.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { KbctxError, type EmbedderOptions } from '../../../core/index.ts';
import {
  createContextHarnessEmbedder,
  createTransformersEmbedder,
} from '../../../plugins/embedder-transformers/create-transformers-embedder.ts';
import { knownModel } from '../../../plugins/models/api.ts';
import { KNOWN_MODELS } from '../../../plugins/models/known-models.ts';
import type { TransformersEmbedder } from '../../../plugins/embedder-transformers/transformers-embedder.ts';
import { writeManifest } from '../../../plugins/models/model-manifest.ts';
import { createModelsService } from '../../../plugins/models/models-service.ts';
import { writeTinyModel } from '../../helpers/tiny-transformer-model.ts';

let cache: string;
const models = () => createModelsService(() => ({ env: { KBCTX_OFFLINE: '1' }, cacheDir: cache }));
const options = (
  provider: string,
  model: string,
  extra: Record<string, unknown> = {},
  dims: number | null = null,
): EmbedderOptions => ({
  provider,
  model,
  dims,
  batchSize: 8,
  concurrency: 1,
  extra,
  baseDir: '/',
  env: {},
});

before(async () => {
  cache = await mkdtemp(join(tmpdir(), 'kbctx-ch-names-'));
  const folder = join(cache, 'Xenova', 'bge-small-en-v1.5');
  await writeTinyModel(folder, { dims: 384 });
  writeManifest(folder, {
    id: 'Xenova/bge-small-en-v1.5',
    revision: 'main',
    files: [],
    fetched: new Date().toISOString(),
  });
});
after(() => rm(cache, { recursive: true, force: true }));

describe('Context Harness model names', () => {
  it('every name maps to a hub repo with its dims, pooling and prefixes', () => {
    assert.deepEqual(Object.keys(KNOWN_MODELS).sort(), [
      'all-minilm-l6-v2',
      'bge-base-en-v1.5',
      'bge-large-en-v1.5',
      'bge-small-en-v1.5',
      'multilingual-e5-base',
      'multilingual-e5-large',
      'multilingual-e5-small',
      'nomic-embed-text-v1',
      'nomic-embed-text-v1.5',
    ]);
    assert.deepEqual(knownModel(' BGE-Small-EN-v1.5 '), {
      repo: 'Xenova/bge-small-en-v1.5',
      dims: 384,
      pooling: 'cls',
      queryPrefix: 'Represent this sentence for searching relevant passages: ',
      documentPrefix: '',
    });
    assert.equal(knownModel('multilingual-e5-large')?.documentPrefix, 'passage: ');
    assert.equal(knownModel('nomic-embed-text-v1.5')?.queryPrefix, 'search_query: ');
    assert.equal(knownModel('text-embedding-3-small'), null);
  });

  it(
    'bge-small-en-v1.5 is the transformers embedder on ' +
      'Xenova/bge-small-en-v1.5 with cls pooling (its identity says so)',
    async () => {
      const known = knownModel('bge-small-en-v1.5')!;
      const named = createContextHarnessEmbedder(options('local', 'bge-small-en-v1.5'), known, models);
      const explicit = createTransformersEmbedder(
        options('transformers', 'Xenova/bge-small-en-v1.5', { pooling: 'cls' }),
        undefined,
        models,
      );
      const meanPooled = createTransformersEmbedder(
        options('transformers', 'Xenova/bge-small-en-v1.5'),
        undefined,
        models,
      );
      assert.match(named.model, /^transformers:Xenova\/bge-small-en-v1\.5:[0-9a-f]{8}$/);
      assert.equal(named.model, explicit.model);
      assert.notEqual(named.model, meanPooled.model);
      assert.equal(named.dims, 384);
      const [vector] = await named.embed(['car engine']);
      assert.equal(vector?.length, 384);
      await Promise.all([named, explicit, meanPooled].map((e) => (e as TransformersEmbedder).close()));
    },
  );

  it('a dims that disagrees with the model is a config error naming both numbers', () => {
    assert.throws(
      () =>
        createContextHarnessEmbedder(
          options('fastembed', 'bge-small-en-v1.5', {}, 768),
          knownModel('bge-small-en-v1.5')!,
          models,
        ),
      (e: unknown) =>
        e instanceof KbctxError &&
        e.code === 'config_error' &&
        /dims = 768 disagrees with model "bge-small-en-v1\.5", which makes 384-dimension vectors/.test(e.message),
    );
  });
});
