// First-party plugin: the `openai` embedding provider (`[embedding] provider = "openai"`). Creating the
// embedder is cheap and synchronous; it connects or loads its model on its first embed().
import { definePlugin, requireOwn, STAGE } from '../../core/api/plugin.ts';

// Required when the provider is configured and the embedder first used (the hook is synchronous), not with this index.
import type * as Factory from './create-openai-embedder.ts';

const plugin = definePlugin({
  name: 'embedder-openai',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['embedder:openai'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(kernel) {
    kernel.hooks.createEmbedder.for('openai').tap({ name: 'embedder-openai', stage: STAGE.FALLBACK }, (options) => requireOwn<typeof Factory>(import.meta.url, './create-openai-embedder.ts').createOpenAiEmbedder(options));
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
