// The transformers embedder from the [embedding] section: the optional package must be installed,
// the options valid and the model folder complete, or a config error (exit 3) says what to do. A hub
// id (`model`, no `model_path`) resolves through the models service: from the cache without any
// request, else fetched on the first embed() (offline: a config error naming `kbctx models pull`).
// Nothing heavy loads here: the worker imports the package on the first embed().
import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { configError, type Embedder, type EmbedderOptions } from '../../core/api/plugin.ts';
import { featureExtractionFiles, modelNotCached, type KnownModel, type ModelsService } from '../models/api.ts';
import { checkModelFolder, modelIdentity, onnxFileName } from './model-folder.ts';
import { parseTransformersOptions, type TransformersOptions } from './transformers-options.ts';
import { TransformersEmbedder } from './transformers-embedder.ts';

export const PACKAGE = '@huggingface/transformers';

/** Throws unless the optional package resolves (without importing it). */
export function requirePackage(resolve: (specifier: string) => string = (s) => import.meta.resolve(s)): void {
  try {
    resolve(PACKAGE);
  } catch (error) {
    throw configError(
      `[embedding] provider = "transformers" needs the optional package ${PACKAGE}, which is not installed: ` +
        `run \`ONNXRUNTIME_NODE_INSTALL=skip npm install ${PACKAGE}\` where kbctx is installed (a global install: ` +
        `\`ONNXRUNTIME_NODE_INSTALL=skip npm install -g kbctx --include=optional\`; the variable skips ONNX ` +
        `Runtime's download of GPU libraries)`,
      error,
    );
  }
}

export function createTransformersEmbedder(
  o: EmbedderOptions,
  resolve?: (specifier: string) => string,
  models?: () => ModelsService,
): Embedder {
  requirePackage(resolve);
  const options = parseTransformersOptions(
    o.extra,
    o.baseDir,
    Math.max(1, Math.min(4, availableParallelism() - 1)),
    o.model,
  );
  const { pooling, normalize, dtype, documentPrefix } = options;
  const shared = { dims: o.dims, batchSize: o.batchSize, concurrency: o.concurrency };
  if (options.hubId === null) {
    const onnxFile = checkModelFolder(options.modelPath, options.dtype);
    return new TransformersEmbedder({
      ...options,
      ...shared,
      model: modelIdentity(options.modelPath, onnxFile, { pooling, normalize, dtype, documentPrefix }),
    });
  }
  return hubEmbedder(options.hubId, options, shared, models);
}

/**
 * A hub model: its identity is the id and the settings (not the weights: it must be the same before
 * the first fetch and after), `transformers:<owner>/<name>:<8 hex>`.
 */
function hubEmbedder(
  id: string,
  options: TransformersOptions,
  shared: { dims: number | null; batchSize: number; concurrency: number },
  models?: () => ModelsService,
): Embedder {
  if (!models)
    throw configError(
      `[embedding] model = "${id}" needs the models plugin (its service kbctx.models fetches hub models); keep ` +
        `"bundled" in plugins or set model_path`,
    );
  const service = models();
  const { pooling, normalize, dtype, documentPrefix } = options;
  const files = featureExtractionFiles(onnxFileName(dtype));
  const settings = JSON.stringify({ id, pooling, normalize, dtype, documentPrefix });
  const model = `transformers:${id}:${createHash('sha256').update(settings).digest('hex').slice(0, 8)}`;
  const cached = service.cached(id, files);
  if (cached !== null) {
    checkModelFolder(cached, dtype);
    return new TransformersEmbedder({ ...options, ...shared, modelPath: cached, model });
  }
  if (service.offline()) throw modelNotCached(id, service.cacheDir());
  return new TransformersEmbedder({ ...options, ...shared, model, prepare: () => service.fetch(id, files) });
}

/**
 * provider "local"/"fastembed" with a Context Harness model name: the hub repo of the same weights,
 * with its family's pooling and prefixes. A `dims` that disagrees with the model is a config error.
 */
export function createContextHarnessEmbedder(
  o: EmbedderOptions,
  known: KnownModel,
  models: () => ModelsService,
): Embedder {
  const name = o.model ?? known.repo;
  if (o.dims !== null && o.dims !== known.dims) {
    throw configError(
      `[embedding] dims = ${o.dims} disagrees with model "${name}", which makes ${known.dims}-dimension vectors: ` +
        `set dims = ${known.dims} or remove it`,
    );
  }
  const extra = {
    ...o.extra,
    pooling: known.pooling,
    query_prefix: known.queryPrefix,
    document_prefix: known.documentPrefix,
  };
  return createTransformersEmbedder(
    { ...o, provider: 'transformers', model: known.repo, dims: known.dims, extra },
    undefined,
    models,
  );
}
