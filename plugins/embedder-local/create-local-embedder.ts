// The bundled local embedder from the [embedding] section: a Context Harness model name is a config
// error saying how to run it. The model runtime is loaded by the embedder's worker on its first
// embed(), not here. KBCTX_LOCAL_RUNTIME = onnx | tfjs picks one runtime (benchmarks, diagnosis).
import { configError, type Embedder, type EmbedderOptions } from '../../core/api/plugin.ts';
import { foreignLocalModelError } from './foreign-local-models.ts';
import { BUNDLED_DIMS, BUNDLED_LOCAL_MODEL, LocalEmbedder } from './local-embedder.ts';
import type { LocalRuntime } from './local-worker-protocol.ts';

const RUNTIMES: readonly LocalRuntime[] = ['auto', 'onnx', 'tfjs'];

export function createLocalEmbedder(o: EmbedderOptions): Embedder {
  const foreign = o.model === null ? null : foreignLocalModelError(o.model, BUNDLED_LOCAL_MODEL, BUNDLED_DIMS);
  if (foreign) throw foreign;
  const runtime = (o.env['KBCTX_LOCAL_RUNTIME'] ?? 'auto') as LocalRuntime;
  if (!RUNTIMES.includes(runtime))
    throw configError(`KBCTX_LOCAL_RUNTIME = "${runtime}": expected one of ${RUNTIMES.join(', ')}`);
  return new LocalEmbedder({ model: o.model ?? BUNDLED_LOCAL_MODEL, dims: o.dims, batchSize: o.batchSize, runtime });
}
