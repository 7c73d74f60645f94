// The `transformers` provider's options: the [embedding] keys beyond the common ones, validated here
// (the config schema lets a plugin's keys through). A relative model_path resolves against the config
// root, like every path in the config (ADR 0114); `~` is the home folder.
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { configError } from '../../core/api/plugin.ts';
import { DTYPES, type Dtype } from '../models/api.ts';

export { DTYPES, type Dtype };

export interface TransformersOptions {
  /** The model folder (Hugging Face layout), absolute; '' for a hub model until it is fetched. */
  modelPath: string;
  /** `model` when `model_path` is unset: a hub id fetched into the model cache (plugins/models). */
  hubId: string | null;
  pooling: 'mean' | 'cls';
  normalize: boolean;
  /** Which onnx/model*.onnx file: fp32 `model.onnx`, q8 `model_quantized.onnx`, fp16 `model_fp16.onnx` … */
  dtype: Dtype;
  queryPrefix: string;
  documentPrefix: string;
  /** ONNX Runtime's intra-op threads (the worker's CPU share). */
  threads: number;
}

const KEYS = ['model_path', 'pooling', 'normalize', 'dtype', 'quantized', 'query_prefix', 'document_prefix', 'threads'];
/** Keys every provider took before ADR 0178 (index.ts accepts them): ignored. */
const UNUSED = ['max_retries', 'timeout_secs', 'url', 'base_url', 'api_key_env'];

export function parseTransformersOptions(
  extra: Readonly<Record<string, unknown>>,
  baseDir: string,
  defaultThreads: number,
  model: string | null = null,
): TransformersOptions {
  const unknown = Object.keys(extra).find((key) => !KEYS.includes(key) && !UNUSED.includes(key));
  if (unknown !== undefined)
    throw bad(unknown, `is not an option of provider "transformers" (options: ${KEYS.join(', ')})`);
  const modelPath = extra['model_path'];
  if (modelPath !== undefined && (typeof modelPath !== 'string' || modelPath === ''))
    throw bad('model_path', 'must be the folder of a downloaded model');
  if (modelPath === undefined && (model === null || model === '')) {
    throw bad(
      'model_path',
      'is required unless model names a Hugging Face hub id (e.g. model = "Xenova/bge-small-en-v1.5", fetched on ' +
        'first use; docs/models.md): the folder of a downloaded model (config.json, tokenizer.json, ' +
        'onnx/model.onnx)',
    );
  }
  const quantized = optionalValue(extra, 'quantized', 'boolean', false);
  if (quantized && extra['dtype'] !== undefined && extra['dtype'] !== 'q8')
    throw bad('quantized', 'conflicts with dtype: keep one');
  const dtype = optionalValue(extra, 'dtype', 'string', quantized ? 'q8' : 'fp32');
  if (!(DTYPES as readonly string[]).includes(dtype)) throw bad('dtype', `must be one of ${DTYPES.join(', ')}`);
  const pooling = optionalValue(extra, 'pooling', 'string', 'mean');
  if (pooling !== 'mean' && pooling !== 'cls') throw bad('pooling', 'must be "mean" or "cls"');
  const threads = optionalValue(extra, 'threads', 'number', defaultThreads);
  if (!Number.isInteger(threads) || threads < 1) throw bad('threads', 'must be a whole number of at least 1');
  return {
    modelPath: typeof modelPath === 'string' ? resolve(baseDir, modelPath.replace(/^~(?=$|\/)/, homedir())) : '',
    hubId: typeof modelPath === 'string' ? null : model,
    pooling,
    normalize: optionalValue(extra, 'normalize', 'boolean', true),
    dtype: dtype as Dtype,
    queryPrefix: optionalValue(extra, 'query_prefix', 'string', ''),
    documentPrefix: optionalValue(extra, 'document_prefix', 'string', ''),
    threads,
  };
}

function optionalValue<T extends 'string' | 'boolean' | 'number'>(
  extra: Readonly<Record<string, unknown>>,
  key: string,
  type: T,
  fallback: T extends 'string' ? string : T extends 'boolean' ? boolean : number,
): typeof fallback {
  const value = extra[key];
  if (value === undefined) return fallback;
  if (typeof value !== type) throw bad(key, `must be a ${type}`);
  return value as typeof fallback;
}

const bad = (key: string, message: string) => configError(`[embedding] ${key} ${message}`);
