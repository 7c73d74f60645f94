// Context Harness's local (fastembed) model names → the ONNX build of the same weights on the Hugging
// Face hub, with its dimensions, pooling and the prefixes its family expects (docs/models.md's table).
// Data only: no imports.

export interface KnownModel {
  /** The hub repo with ONNX weights in onnx/ (the transformers.js layout). */
  readonly repo: string;
  readonly dims: number;
  readonly pooling: 'mean' | 'cls';
  readonly queryPrefix: string;
  readonly documentPrefix: string;
}

const BGE_QUERY = 'Represent this sentence for searching relevant passages: ';
const bge = (repo: string, dims: number): KnownModel => ({
  repo,
  dims,
  pooling: 'cls',
  queryPrefix: BGE_QUERY,
  documentPrefix: '',
});
const e5 = (repo: string, dims: number): KnownModel => ({
  repo,
  dims,
  pooling: 'mean',
  queryPrefix: 'query: ',
  documentPrefix: 'passage: ',
});
const nomic = (repo: string): KnownModel => ({
  repo,
  dims: 768,
  pooling: 'mean',
  queryPrefix: 'search_query: ',
  documentPrefix: 'search_document: ',
});

export const KNOWN_MODELS: Readonly<Record<string, KnownModel>> = {
  'all-minilm-l6-v2': {
    repo: 'Xenova/all-MiniLM-L6-v2',
    dims: 384,
    pooling: 'mean',
    queryPrefix: '',
    documentPrefix: '',
  },
  'bge-small-en-v1.5': bge('Xenova/bge-small-en-v1.5', 384),
  'bge-base-en-v1.5': bge('Xenova/bge-base-en-v1.5', 768),
  'bge-large-en-v1.5': bge('Xenova/bge-large-en-v1.5', 1024),
  'nomic-embed-text-v1': nomic('Xenova/nomic-embed-text-v1'),
  'nomic-embed-text-v1.5': nomic('nomic-ai/nomic-embed-text-v1.5'),
  'multilingual-e5-small': e5('Xenova/multilingual-e5-small', 384),
  'multilingual-e5-base': e5('Xenova/multilingual-e5-base', 768),
  'multilingual-e5-large': e5('Xenova/multilingual-e5-large', 1024),
};

/** The entry for a Context Harness model name (case and surrounding spaces ignored), or null. */
export function knownModel(name: string): KnownModel | null {
  return KNOWN_MODELS[name.trim().toLowerCase()] ?? null;
}
