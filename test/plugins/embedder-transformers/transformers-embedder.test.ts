// The transformers embedder on a tiny ONNX model built by the test (no downloaded weights): real
// tokenizer, real ONNX Runtime in the worker thread, the pipeline's pooling; and the config errors
// for a missing package, bad options and an incomplete model folder.
import assert from 'node:assert/strict';
import { mkdtemp, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { KbctxError, type EmbedderOptions } from '../../../core/index.ts';
import { writeTinyModel } from '../../helpers/tiny-transformer-model.ts';
import { createTransformersEmbedder } from '../../../plugins/embedder-transformers/create-transformers-embedder.ts';
import type { TransformersEmbedder } from '../../../plugins/embedder-transformers/transformers-embedder.ts';

const options = (extra: Record<string, unknown>): EmbedderOptions => ({
  provider: 'transformers',
  model: null,
  dims: null,
  batchSize: 8,
  concurrency: 1,
  extra,
  baseDir: '/',
  env: {},
});
const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, v, i) => sum + v * (b[i] as number), 0);
const isConfigError = (pattern: RegExp) => (e: unknown) =>
  e instanceof KbctxError && e.code === 'config_error' && pattern.test(e.message);

let dir: string;
const open: TransformersEmbedder[] = [];
const create = (extra: Record<string, unknown>) => {
  const embedder = createTransformersEmbedder(options(extra)) as TransformersEmbedder;
  open.push(embedder);
  return embedder;
};

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kbctx-tiny-model-'));
  await writeTinyModel(join(dir, 'tiny'), { quantized: true });
  await writeTinyModel(join(dir, 'other'), { seed: 7 });
});
after(async () => {
  await Promise.all(open.map((e) => e.close()));
  await rm(dir, { recursive: true, force: true });
});

describe('the transformers embedder', () => {
  it('embeds in a worker thread: unit vectors, synonyms close, other topics far', async () => {
    const embedder = create({ model_path: join(dir, 'tiny') });
    assert.match(embedder.model, /^transformers:tiny:[0-9a-f]{8}$/);
    const [car, automobile, sea] = await embedder.embed([
      'The car engine',
      'automobile driving',
      'sea waves on the coast',
    ]);
    assert.ok(car && automobile && sea);
    assert.equal(car.length, 16);
    assert.ok(Math.abs(dot(car, car) - 1) < 1e-5);
    assert.ok(dot(car, automobile) > 0.95, `car·automobile = ${dot(car, automobile)}`);
    assert.ok(dot(car, sea) < 0.2, `car·sea = ${dot(car, sea)}`);
  });

  it('prefixes documents and queries with their own prefix', async () => {
    const plain = create({ model_path: join(dir, 'tiny') });
    const prefixed = create({ model_path: join(dir, 'tiny'), query_prefix: 'ocean ', document_prefix: 'bread ' });
    const [query] = [await prefixed.embedQuery('car')];
    const [doc] = await prefixed.embed(['car']);
    const [car] = await plain.embed(['car']);
    assert.ok(query && doc && car);
    assert.ok(dot(query, car) < 0.9 && dot(doc, car) < 0.9 && dot(query, doc) < 0.9);
    assert.notEqual(prefixed.model, plain.model, 'a document prefix changes stored vectors, so the identity');
  });

  it('another model, dtype or pooling is another identity (stored vectors become stale)', () => {
    const base = create({ model_path: join(dir, 'tiny') }).model;
    assert.notEqual(create({ model_path: join(dir, 'other') }).model.split(':')[2], base.split(':')[2]);
    assert.notEqual(create({ model_path: join(dir, 'tiny'), quantized: true }).model, base);
    assert.notEqual(create({ model_path: join(dir, 'tiny'), pooling: 'cls' }).model, base);
    assert.equal(
      create({ model_path: join(dir, 'tiny'), query_prefix: 'q: ' }).model,
      base,
      'a query prefix does not touch stored vectors',
    );
  });

  it('cls pooling and the quantized file run too', async () => {
    const [cls] = await create({ model_path: join(dir, 'tiny'), pooling: 'cls' }).embed(['car sea']);
    const [q8] = await create({ model_path: join(dir, 'tiny'), dtype: 'q8' }).embed(['car']);
    assert.equal(cls?.length, 16);
    assert.equal(q8?.length, 16);
  });

  it('an incomplete folder is a config error naming what is missing', async () => {
    assert.throws(() => create({ model_path: join(dir, 'nowhere') }), isConfigError(/nowhere is not a folder/));
    assert.throws(
      () => create({ model_path: join(dir, 'other'), dtype: 'fp16' }),
      isConfigError(/missing onnx\/model_fp16\.onnx.*dtype = "fp16"/),
    );
    await writeTinyModel(join(dir, 'broken'));
    await unlink(join(dir, 'broken', 'tokenizer.json'));
    await unlink(join(dir, 'broken', 'config.json'));
    assert.throws(
      () => create({ model_path: join(dir, 'broken') }),
      isConfigError(/incomplete: missing config\.json, tokenizer\.json;/),
    );
  });

  it('bad options are config errors naming the key', () => {
    assert.throws(() => create({}), isConfigError(/model_path is required/));
    assert.throws(
      () => create({ model_path: join(dir, 'tiny'), pooling: 'max' }),
      isConfigError(/pooling must be "mean" or "cls"/),
    );
    assert.throws(
      () => create({ model_path: join(dir, 'tiny'), threads: 0 }),
      isConfigError(/threads must be a whole number/),
    );
    assert.throws(
      () => create({ model_path: join(dir, 'tiny'), modle: 'x' }),
      isConfigError(/modle is not an option of provider "transformers"/),
    );
  });

  it('without the optional package: a config error saying how to add it', () => {
    const missing = () => {
      throw Object.assign(new Error("Cannot find package '@huggingface/transformers'"), {
        code: 'ERR_MODULE_NOT_FOUND',
      });
    };
    assert.throws(
      () => createTransformersEmbedder(options({ model_path: join(dir, 'tiny') }), missing),
      isConfigError(/npm install @huggingface\/transformers/),
    );
  });
});
