import { configError, type KbctxError } from '../../core/api/plugin.ts';
// Context Harness's local (fastembed/tract) model names. Their weights download at run time, which
// kbctx never does: naming one explains the offline provider kbctx has and how to run the same model.

/** Context Harness local model → [dims, Ollama model serving the same weights (null: none in its library)]. */
const MODELS: Record<string, [number, string | null]> = {
  'all-minilm-l6-v2': [384, 'all-minilm'],
  'bge-small-en-v1.5': [384, null],
  'bge-base-en-v1.5': [768, null],
  'bge-large-en-v1.5': [1024, 'bge-large'],
  'nomic-embed-text-v1': [768, 'nomic-embed-text'],
  'nomic-embed-text-v1.5': [768, 'nomic-embed-text'],
  'multilingual-e5-small': [384, null],
  'multilingual-e5-base': [768, null],
  'multilingual-e5-large': [1024, null],
};

/** A config_error for a Context Harness local model name, or null for any other model. */
export function foreignLocalModelError(model: string, bundled: string, bundledDims: number): KbctxError | null {
  const known = MODELS[model.trim().toLowerCase()];
  if (!known) return null;
  const [dims, ollama] = known;
  const viaOllama = ollama
    ? `provider = "ollama", model = "${ollama}", dims = ${dims} (run \`ollama pull ${ollama}\`)`
    : `provider = "ollama" with a model you pulled, or provider = "openai" with base_url pointing at any ` +
      `OpenAI-compatible server (e.g. text-embeddings-inference) serving ${model}, dims = ${dims}`;
  return configError(
    `[embedding] model = "${model}" is a Context Harness local (fastembed) model, whose weights are downloaded ` +
      `at run time; kbctx never downloads models. ` +
      `Offline, kbctx supports provider = "local" with the bundled "${bundled}" (${bundledDims} dims; leave ` +
      `model unset). ` +
      `For ${model} itself: ${viaOllama}. Then run \`kbctx embed rebuild\`.`,
  );
}
