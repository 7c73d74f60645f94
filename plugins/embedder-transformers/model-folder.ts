// Checks a model folder before anything loads it: the files the transformers pipeline reads, named
// when missing (a config error, exit 3), and the identity of the weights (a changed model file makes
// the stored vectors stale). Synchronous and cheap: a few stats and at most 128 KiB read.
import { closeSync, existsSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { configError } from '../../core/api/plugin.ts';
import { onnxFileName, type Dtype } from '../models/api.ts';

export { onnxFileName };

/** Throws a config error naming every missing file; returns the ONNX file's path. */
export function checkModelFolder(dir: string, dtype: Dtype): string {
  const fix =
    'download the model into it (docs/embeddings.md, "Local transformer models") or fix [embedding] model_path';
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw configError(`[embedding] model_path ${dir} is not a folder: ${fix}`);
  const wanted = ['config.json', 'tokenizer.json', onnxFileName(dtype)];
  const missing = wanted.filter((file) => !existsSync(join(dir, file)));
  if (missing.length > 0) {
    const other =
      dtype === 'fp32'
        ? ''
        : ` (dtype = "${dtype}" reads ${onnxFileName(dtype)}; the full-precision file is onnx/model.onnx)`;
    throw configError(`[embedding] model_path ${dir} is incomplete: missing ${missing.join(', ')}${other}; ${fix}`);
  }
  return join(dir, onnxFileName(dtype));
}

/**
 * The embedder identity: `transformers:<folder name>:<8 hex>`, the hex over the weights (size, first
 * and last 64 KiB) and every option that changes stored vectors, so another model or setting re-embeds.
 */
export function modelIdentity(dir: string, onnxFile: string, settings: object, name: string = basename(dir)): string {
  // loaded on use, not at start-up
  const hash = process.getBuiltinModule('node:crypto').createHash('sha256').update(JSON.stringify(settings));
  const fd = openSync(onnxFile, 'r');
  try {
    const size = fstatSync(fd).size;
    const span = Math.min(size, 65_536);
    const buffer = Buffer.alloc(span);
    readSync(fd, buffer, 0, span, 0);
    hash.update(`${size}`).update(buffer);
    readSync(fd, buffer, 0, span, size - span);
    hash.update(buffer);
  } finally {
    closeSync(fd);
  }
  return `transformers:${name}:${hash.digest('hex').slice(0, 8)}`;
}
