// First-party plugin: the `transformers` embedding provider (`[embedding] provider = "transformers"`):
// a local ONNX model folder run by @huggingface/transformers (an optional dependency) in a worker.
// Creating the embedder only checks the package and the folder; the model loads on the first embed().
import { definePlugin, requireOwn, STAGE } from '../../core/api/plugin.ts';

// Required when the provider is configured and the embedder first used (the hook is synchronous), not with this index.
import type * as Factory from './create-transformers-embedder.ts';

const plugin = definePlugin({
  name: 'embedder-transformers',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['embedder:transformers'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(kernel) {
    kernel.hooks.createEmbedder.for('transformers').tap({ name: 'embedder-transformers', stage: STAGE.FALLBACK }, (options) => requireOwn<typeof Factory>(import.meta.url, './create-transformers-embedder.ts').createTransformersEmbedder(options));
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
