// First-party plugin: the `openai` embedding provider (`[embedding] provider = "openai"`). Creating the
// embedder is cheap and synchronous; it connects or loads its model on its first embed().
import { definePlugin, requireOwn, STAGE, type ConfigSection } from '../../core/api/plugin.ts';

// Required when the provider is configured and the embedder first used (the hook is synchronous), not with this index.
import type * as Factory from './create-openai-embedder.ts';

// The `openai` provider's `[embedding]` keys beyond the shared ones (ADR 0178): where to send requests,
// the variable holding the key, retries and the time-out. `model` and `dims` are required with it.
// (Here, not in a module of its own: the bundled set registers it at start-up, ADR 0130.)
export interface OpenAiSettings {
  /** `base_url`, else `url` (an OpenAI-compatible /v1), else null: OpenAI's. */
  readonly baseUrl: string | null;
  readonly apiKeyEnv: string;
  readonly maxRetries: number;
  readonly timeoutSecs: number;
}

export const openAiSection: ConfigSection<OpenAiSettings> = {
  schema: {
    type: 'object',
    properties: {
      // Any OpenAI-compatible /v1/embeddings server; `url` is accepted for the same.
      base_url: { type: 'string' },
      url: { type: 'string' },
      // The environment variable holding the API key (never the key itself).
      api_key_env: { type: 'string', default: 'OPENAI_API_KEY' },
      max_retries: { type: 'integer', minimum: 0, default: 5 },
      timeout_secs: { type: 'number', exclusiveMinimum: 0, default: 30 },
    },
    additionalProperties: false,
  },
  toConfig: (t, at) => {
    if (!t['model'] || !t['dims']) at.fail('provider', '"openai" needs embedding.model and embedding.dims');
    return {
      baseUrl: ((t['base_url'] ?? t['url']) as string | undefined) ?? null,
      apiKeyEnv: t['api_key_env'] as string,
      maxRetries: t['max_retries'] as number,
      timeoutSecs: t['timeout_secs'] as number,
    };
  },
};

const plugin = definePlugin({
  name: 'embedder-openai',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['embedder:openai'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  embedderConfigs: { openai: openAiSection },
  apply(kernel) {
    kernel.hooks.createEmbedder
      .for('openai')
      .tap({ name: 'embedder-openai', stage: STAGE.FALLBACK }, (options) =>
        requireOwn<typeof Factory>(import.meta.url, './create-openai-embedder.ts').createOpenAiEmbedder(options),
      );
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
