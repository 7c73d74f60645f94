// The bundled local embedder from the [embedding] section: a Context Harness model name is a config
// error saying how to run it. TF.js is imported by the embedder on its first embed(), not here.
import type { Embedder, EmbedderOptions } from '../../core/api/plugin.ts';
import { foreignLocalModelError } from './foreign-local-models.ts';
import { BUNDLED_DIMS, BUNDLED_LOCAL_MODEL, LocalEmbedder } from './local-embedder.ts';

export function createLocalEmbedder(o: EmbedderOptions): Embedder {
  const foreign = o.model === null ? null : foreignLocalModelError(o.model, BUNDLED_LOCAL_MODEL, BUNDLED_DIMS);
  if (foreign) throw foreign;
  return new LocalEmbedder({ model: o.model ?? BUNDLED_LOCAL_MODEL, dims: o.dims, batchSize: o.batchSize });
}
