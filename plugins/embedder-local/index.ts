// First-party plugin: the `local` embedding provider (`[embedding] provider = "local"`). Creating the
// embedder is cheap and synchronous; it connects or loads its model on its first embed().
import { definePlugin, requireOwn, STAGE } from '../../core/api/plugin.ts';

// Required when the provider is configured and the embedder first used (the hook is synchronous), not with this index.
import type * as Factory from './create-local-embedder.ts';

const plugin = definePlugin({
  name: 'embedder-local',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['embedder:local'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(kernel) {
    kernel.hooks.createEmbedder.for('local').tap({ name: 'embedder-local', stage: STAGE.FALLBACK }, (options) => requireOwn<typeof Factory>(import.meta.url, './create-local-embedder.ts').createLocalEmbedder(options));
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
