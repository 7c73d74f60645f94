// First-party plugin: the `ollama` embedding provider (`[embedding] provider = "ollama"`). Creating the
// embedder is cheap and synchronous; it connects or loads its model on its first embed().
import { definePlugin, requireOwn, STAGE } from '../../core/api/plugin.ts';

// Required when the provider is configured and the embedder first used (the hook is synchronous), not with this index.
import type * as Factory from './create-ollama-embedder.ts';

const plugin = definePlugin({
  name: 'embedder-ollama',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['embedder:ollama'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(kernel) {
    kernel.hooks.createEmbedder.for('ollama').tap({ name: 'embedder-ollama', stage: STAGE.FALLBACK }, (options) => requireOwn<typeof Factory>(import.meta.url, './create-ollama-embedder.ts').createOllamaEmbedder(options));
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
