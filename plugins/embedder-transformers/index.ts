// First-party plugin: the `transformers` embedding provider (`[embedding] provider = "transformers"`):
// an ONNX model run by @huggingface/transformers (an optional dependency) in a worker, from a local
// folder (`model_path`) or by hub id (`model`, fetched into the cache by the models plugin's service).
// Creating the embedder only checks the package and the folder; the model loads on the first embed().
import { definePlugin, requireOwn, STAGE, type ConfigSection } from '../../core/api/plugin.ts';
import { DTYPES, knownModel, modelsService } from '../models/api.ts';

// Required when the provider is configured and the embedder first used (the hook is synchronous), not with this index.
import type * as Factory from './create-transformers-embedder.ts';

/** Which onnx/model*.onnx file: fp32 `model.onnx`, q8 `model_quantized.onnx`, fp16 `model_fp16.onnx` … */
export { DTYPES };
const UNUSED = {
  description: 'accepted for earlier kbctx configs (keys every provider took); unused by this provider',
};

// The `transformers` provider's `[embedding]` keys beyond the shared ones (ADR 0178), checked when the
// config loads; their defaults and relations (`quantized` vs `dtype`, `model_path` required, resolved
// against the config root) are applied when the embedder is created (transformers-options.ts).
export const transformersSection: ConfigSection = {
  schema: {
    type: 'object',
    properties: {
      model_path: { type: 'string' },
      pooling: { enum: ['mean', 'cls'] },
      normalize: { type: 'boolean' },
      dtype: { enum: [...DTYPES] },
      quantized: { type: 'boolean' },
      query_prefix: { type: 'string' },
      document_prefix: { type: 'string' },
      threads: { type: 'integer', minimum: 1 },
      max_retries: { type: 'integer', ...UNUSED },
      timeout_secs: { type: 'number', ...UNUSED },
      url: { type: 'string', ...UNUSED },
      base_url: { type: 'string', ...UNUSED },
      api_key_env: { type: 'string', ...UNUSED },
    },
    additionalProperties: false,
  },
};

const plugin = definePlugin({
  name: 'embedder-transformers',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['embedder:transformers'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  embedderConfigs: { transformers: transformersSection },
  apply(kernel) {
    const factory = () => requireOwn<typeof Factory>(import.meta.url, './create-transformers-embedder.ts');
    const models = () => kernel.use(modelsService);
    kernel.hooks.createEmbedder
      .for('transformers')
      .tap({ name: 'embedder-transformers', stage: STAGE.FALLBACK }, (options) =>
        factory().createTransformersEmbedder(options, undefined, models),
      );
    // A Context Harness (fastembed) model name under provider "local" or "fastembed": the same weights'
    // ONNX build from the hub (ADR 0186). Before embedder-local's tap; any other model falls through to it.
    for (const provider of ['local', 'fastembed']) {
      kernel.hooks.createEmbedder.for(provider).tap({ name: 'embedder-transformers', stage: STAGE.LATE }, (options) => {
        const known = options.model === null ? null : knownModel(options.model);
        return known ? factory().createContextHarnessEmbedder(options, known, models) : undefined;
      });
    }
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
