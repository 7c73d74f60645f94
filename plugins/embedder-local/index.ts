// First-party plugin: the `local` embedding provider (`[embedding] provider = "local"`). Creating the
// embedder is cheap and synchronous; it connects or loads its model on its first embed().
import { definePlugin, requireOwn, STAGE, type ConfigSection } from '../../core/api/plugin.ts';

// Required when the provider is configured and the embedder first used (the hook is synchronous), not with this index.
import type * as Factory from './create-local-embedder.ts';

// The `local` provider's `[embedding]` keys beyond the shared ones (ADR 0178): none it reads (`quantized`
// is for a Context Harness model name, which embedder-transformers answers before this plugin). The keys
// Context Harness writes for every provider (`max_retries`, `timeout_secs`) and those earlier kbctx
// configs carried for all (`url`, `base_url`, `api_key_env`) are accepted so those files still load.
const UNUSED = { description: 'accepted for Context Harness and earlier kbctx configs; unused by this provider' };
export const localSection: ConfigSection = {
  schema: {
    type: 'object',
    properties: {
      // With a Context Harness model name (run by embedder-transformers, docs/models.md): the q8 weights.
      quantized: { type: 'boolean', description: 'with a Context Harness model name: the quantized (q8) ONNX weights' },
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
  name: 'embedder-local',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['embedder:local'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  // `fastembed`: Context Harness's other name for its local provider.
  embedderConfigs: { local: localSection, fastembed: localSection },
  apply(kernel) {
    for (const provider of ['local', 'fastembed']) {
      kernel.hooks.createEmbedder
        .for(provider)
        .tap({ name: 'embedder-local', stage: STAGE.FALLBACK }, (options) =>
          requireOwn<typeof Factory>(import.meta.url, './create-local-embedder.ts').createLocalEmbedder(options),
        );
    }
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
