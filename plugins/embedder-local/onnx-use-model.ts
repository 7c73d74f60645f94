// USE Lite (or a TF.js graph model folder of the same shape) run by ONNX Runtime: the graph is
// translated in memory (tfjs-to-onnx.ts), so the weights and the vectors are TF.js's (cosine 1.0, ADR
// 0188) at several times the speed. Runs inside the embedding worker thread; one intra-op thread so
// the embed stays one bounded unit of background work. Throws when onnxruntime-node cannot load.
import { readFile } from 'node:fs/promises';
import type * as OrtModule from 'onnxruntime-node';
import path from 'node:path';
import { tfjsToOnnx, type TfjsGraphModel } from './tfjs-to-onnx.ts';
import { UseTokenizer, type UseVocabulary } from './use-tokenizer.ts';

/** The graph's output: the l2-normalised sentence embedding. */
const OUTPUT = 'module_apply_default/Encoder_en/hidden_layers/l2_normalize';

type Ort = typeof OrtModule;

/** One row per text, `dims` floats each, one after another. */
export interface UseVectors {
  vectors: Float32Array;
  dims: number;
}

export interface UseModel {
  embed(texts: string[]): Promise<UseVectors>;
}

export async function loadOnnxUseModel(folder: string): Promise<UseModel> {
  const ort = (await import('onnxruntime-node')) as Ort;
  const graph = JSON.parse(await readFile(path.join(folder, 'model.json'), 'utf8')) as TfjsGraphModel;
  const shards = await Promise.all(
    graph.weightsManifest.flatMap((g) => g.paths).map((p) => readFile(path.join(folder, p))),
  );
  const vocabulary = JSON.parse(await readFile(path.join(folder, 'vocab.json'), 'utf8')) as UseVocabulary;
  const session = await ort.InferenceSession.create(tfjsToOnnx(graph, shards, OUTPUT), {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
    logSeverityLevel: 3,
  });
  const tokenizer = new UseTokenizer(vocabulary);
  return {
    async embed(texts) {
      // The model's input, as the TF.js wrapper builds it: a sparse [text, position] → token id matrix.
      const encoded = texts.map((t) => tokenizer.encode(t));
      const count = encoded.reduce((n, e) => n + e.length, 0);
      const indices = new BigInt64Array(count * 2);
      const values = new BigInt64Array(count);
      let k = 0;
      encoded.forEach((ids, row) => {
        ids.forEach((id, column) => {
          indices[2 * k] = BigInt(row);
          indices[2 * k + 1] = BigInt(column);
          values[k++] = BigInt(id);
        });
      });
      const out = await session.run({
        indices: new ort.Tensor('int64', indices, [count, 2]),
        values: new ort.Tensor('int64', values, [count]),
      });
      const vectors = (out[OUTPUT]!.data as Float32Array).slice(); // our own buffer, to transfer
      return { vectors, dims: vectors.length / Math.max(1, texts.length) };
    },
  };
}
