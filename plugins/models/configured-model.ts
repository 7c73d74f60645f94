// Which hub model the [embedding] section asks for, if any: provider "transformers" with `model`
// (no `model_path`), or provider "local"/"fastembed" with a Context Harness model name.
import type { Config } from '../../core/api/plugin.ts';
import { dtypeOf, featureExtractionFiles, onnxFileName, type ModelFiles } from './api.ts';
import { knownModel } from './known-models.ts';

export function configuredHubModel(embedding: Config['embedding']): { id: string; files: ModelFiles } | null {
  const { provider, model, extra } = embedding;
  if (model === null) return null;
  const files = featureExtractionFiles(onnxFileName(dtypeOf(extra)));
  if (provider === 'transformers' && extra['model_path'] === undefined) return { id: model, files };
  const known = provider === 'local' || provider === 'fastembed' ? knownModel(model) : null;
  return known ? { id: known.repo, files } : null;
}
