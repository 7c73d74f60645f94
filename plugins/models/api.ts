// models' contract entry: the service `kbctx.models` that resolves a Hugging Face hub id to a local
// folder (the model cache), fetching the files on first use, and the Context Harness (fastembed) model
// names it maps to hub repos, the ONNX file per dtype, `[models]` as loaded. Light: loads core's plugin
// entry only; the names' table (known-models.ts) when a model name is first looked up.
import {
  configError,
  createServiceRef,
  requireOwn,
  sectionOf,
  type Config,
  type KbctxError,
} from '../../core/api/plugin.ts';
import type * as Known from './known-models.ts';

export type { KnownModel } from './known-models.ts';

/** The Context Harness model `name` stands for, or null (known-models.ts, required on first use: ADR 0130). */
export const knownModel: typeof Known.knownModel = (name) =>
  requireOwn<typeof Known>(import.meta.url, './known-models.ts').knownModel(name);

/** The files a model needs: `required` fail the fetch when the hub lacks them; `optional` are fetched when present. */
export interface ModelFiles {
  readonly required: readonly string[];
  readonly optional?: readonly string[];
}

export interface FetchOptions {
  /** Branch, tag or commit (default `main`). */
  readonly revision?: string;
  /** Where progress goes (default: stderr, a bar on a terminal, else a line every few seconds). */
  readonly write?: (text: string) => void;
  readonly interactive?: boolean;
}

export interface ModelsService {
  /**
   * The cache root: `KBCTX_MODELS_DIR`, else `[models] cache_dir`, else `$XDG_CACHE_HOME/kbctx/models`
   * (`~/.cache/kbctx/models`).
   */
  cacheDir(): string;
  /** True when `KBCTX_OFFLINE` or `HF_HUB_OFFLINE` is set (1/true/yes): nothing touches the network. */
  offline(): boolean;
  /**
   * The model's folder when it holds every required file (no network, synchronous; marks it used), else null. Throws a
   * config error for a malformed id.
   */
  cached(id: string, files: ModelFiles, revision?: string): string | null;
  /**
   * The model's folder, fetching what is missing from the hub (`HF_ENDPOINT`, `HF_TOKEN`): each file
   * verified (size, sha256) and renamed into place when whole; another process fetching the same
   * model is waited for. Offline with the model missing: a config error naming `kbctx models pull <id>`.
   * A file the hub lacks or refuses: config_error; a network fault or a checksum mismatch: upstream_error.
   */
  fetch(id: string, files: ModelFiles, options?: FetchOptions): Promise<string>;
}

/** Provided by the models plugin: `kernel.use(modelsService).fetch(id, files)`. */
export const modelsService = createServiceRef<ModelsService>('kbctx.models');

/**
 * What transformers.js reads for a feature-extraction model, with the ONNX weights file (`onnx/model.onnx`,
 * `onnx/model_quantized.onnx` …).
 */
export function featureExtractionFiles(onnxFile: string): ModelFiles {
  return {
    required: ['config.json', 'tokenizer.json', 'tokenizer_config.json', onnxFile],
    optional: ['special_tokens_map.json', `${onnxFile}_data`],
  };
}

/** Offline with the model missing from the cache: a config error (exit 3) naming the command that fetches it. */
export function modelNotCached(id: string, cacheDir: string): KbctxError {
  return configError(
    `model "${id}" is not in the model cache (${cacheDir}) and downloads are off (KBCTX_OFFLINE or ` +
      `HF_HUB_OFFLINE): run \`kbctx models pull ${id}\` with network access, or copy the cache from a machine that ` +
      `has it`,
  );
}

// transformers.js's ONNX weights file per dtype (`onnx/model${suffix}.onnx`), and which one an
// [embedding] section asks for (`dtype`, or `quantized = true` for q8).
export const DTYPES = ['fp32', 'fp16', 'q8', 'int8', 'uint8', 'q4', 'bnb4', 'q4f16'] as const;
export type Dtype = (typeof DTYPES)[number];

const SUFFIX: Record<Dtype, string> = {
  fp32: '',
  fp16: '_fp16',
  q8: '_quantized',
  int8: '_int8',
  uint8: '_uint8',
  q4: '_q4',
  bnb4: '_bnb4',
  q4f16: '_q4f16',
};

export const onnxFileName = (dtype: Dtype): string => `onnx/model${SUFFIX[dtype]}.onnx`;

/** The dtype an [embedding] section's own keys ask for (fp32 unless `dtype` or `quantized = true`). */
export function dtypeOf(extra: Readonly<Record<string, unknown>>): Dtype {
  const dtype = extra['dtype'];
  if (typeof dtype === 'string' && (DTYPES as readonly string[]).includes(dtype)) return dtype as Dtype;
  return extra['quantized'] === true ? 'q8' : 'fp32';
}

/** `[models]` as the loaded config holds it (index.ts declares the section). */
export interface ModelsConfig {
  /** Absolute; null: the default (`KBCTX_MODELS_DIR` still wins). */
  readonly cacheDir: string | null;
}

/** `[models]` of a loaded config (absent in a hand-built config: the defaults). */
export const modelsConfigOf = (config: Config): ModelsConfig =>
  sectionOf<ModelsConfig | undefined>(config, 'models') ?? { cacheDir: null };
