// First-party plugin: the `ollama` embedding provider (`[embedding] provider = "ollama"`). Creating the
// embedder is cheap and synchronous; it connects or loads its model on its first embed().
import { definePlugin, requireOwn, STAGE, type ConfigSection } from '../../core/api/plugin.ts';

// Required when the provider is configured and the embedder first used (the hook is synchronous), not with this index.
import type * as Factory from './create-ollama-embedder.ts';

// The `ollama` provider's `[embedding]` keys beyond the shared ones (ADR 0178): its native API's
// address, retries and the time-out. `model` and `dims` are required with it.
// (Here, not in a module of its own: the bundled set registers it at start-up, ADR 0130.)
export interface OllamaSettings {
  /** `url`, else `base_url`, else null: http://localhost:11434. */
  readonly url: string | null;
  readonly maxRetries: number;
  readonly timeoutSecs: number;
}

export const ollamaSection: ConfigSection<OllamaSettings> = {
  schema: {
    type: 'object',
    properties: {
      url: { type: 'string' },
      base_url: { type: 'string' },
      // Written by configs made for openai; Ollama needs no key.
      api_key_env: { type: 'string' },
      max_retries: { type: 'integer', minimum: 0, default: 5 },
      timeout_secs: { type: 'number', exclusiveMinimum: 0, default: 30 },
    },
    additionalProperties: false,
  },
  toConfig: (t, at) => {
    if (!t['model'] || !t['dims']) at.fail('provider', '"ollama" needs embedding.model and embedding.dims');
    return {
      url: ((t['url'] ?? t['base_url']) as string | undefined) ?? null,
      maxRetries: t['max_retries'] as number,
      timeoutSecs: t['timeout_secs'] as number,
    };
  },
};

const plugin = definePlugin({
  name: 'embedder-ollama',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['embedder:ollama'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  embedderConfigs: { ollama: ollamaSection },
  apply(kernel) {
    kernel.hooks.createEmbedder
      .for('ollama')
      .tap({ name: 'embedder-ollama', stage: STAGE.FALLBACK }, (options) =>
        requireOwn<typeof Factory>(import.meta.url, './create-ollama-embedder.ts').createOllamaEmbedder(options),
      );
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
