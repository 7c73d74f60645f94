// The transformers embedder from the [embedding] section: the optional package must be installed,
// the options valid and the model folder complete, or a config error (exit 3) says what to do.
// Nothing heavy loads here: the worker imports the package on the first embed().
import { availableParallelism } from 'node:os';
import { configError, type Embedder, type EmbedderOptions } from '../../core/api/plugin.ts';
import { checkModelFolder, modelIdentity } from './model-folder.ts';
import { parseTransformersOptions } from './transformers-options.ts';
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
        `\`ONNXRUNTIME_NODE_INSTALL=skip npm install -g kbctx --include=optional\`; the variable skips ONNX Runtime's download of GPU libraries)`,
      error,
    );
  }
}

export function createTransformersEmbedder(o: EmbedderOptions, resolve?: (specifier: string) => string): Embedder {
  requirePackage(resolve);
  const options = parseTransformersOptions(o.extra, o.baseDir, Math.max(1, Math.min(4, availableParallelism() - 1)));
  const onnxFile = checkModelFolder(options.modelPath, options.dtype);
  const { pooling, normalize, dtype, documentPrefix } = options;
  return new TransformersEmbedder({
    ...options,
    model: modelIdentity(options.modelPath, onnxFile, { pooling, normalize, dtype, documentPrefix }),
    dims: o.dims,
    batchSize: o.batchSize,
    concurrency: o.concurrency,
  });
}
