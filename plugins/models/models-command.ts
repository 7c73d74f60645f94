// `kbctx models pull <id>`, `kbctx models list`, `kbctx models rm <id>`: the model cache by hand. An id
// is a hub id (`Xenova/bge-small-en-v1.5`) or a Context Harness name (`bge-small-en-v1.5`).
import { existsSync, rmSync } from 'node:fs';
import type { Command } from 'commander';
import { notFound, type CliProgram } from '../../core/api/plugin.ts';
import { formatBytes, formatTable, type CliContext } from '../cli/api.ts';
import { featureExtractionFiles, modelsConfigOf, onnxFileName } from './api.ts';
import { configuredHubModel } from './configured-model.ts';
import { knownModel } from './known-models.ts';
import { lastUsed, listCached } from './model-manifest.ts';

import { createModelsService } from './models-service.ts';
import { modelFolder } from './models-settings.ts';

const hubId = (id: string): string => knownModel(id)?.repo ?? id;

export function registerModels(cli: CliProgram, ctx: CliContext): void {
  const program = cli as unknown as Command; // commander's Command at run time
  const service = () =>
    createModelsService(() => ({ env: ctx.io.env, cacheDir: modelsConfigOf(ctx.config()).cacheDir }));
  const models = program
    .command('models')
    .description('the model cache: fetch a model by its hub id, list, remove (docs/models.md)');

  models
    .command('pull')
    .description('fetch a model into the cache (config, tokenizer, ONNX weights), or check it is whole')
    .argument('<id>', 'hub id (Xenova/bge-small-en-v1.5) or Context Harness name (bge-small-en-v1.5)')
    .option(
      '--quantized',
      'the q8 weights (onnx/model_quantized.onnx); default: as [embedding] asks for this model, else fp32',
    )
    .action(async (id: string, opts: { quantized?: boolean }) => {
      const repo = hubId(id);
      const configured = configuredHubModel(ctx.config().embedding);
      const files = opts.quantized
        ? featureExtractionFiles(onnxFileName('q8'))
        : configured?.id === repo
          ? configured.files
          : featureExtractionFiles(onnxFileName('fp32'));
      const folder = await service().fetch(repo, files, {
        interactive: ctx.io.interactive,
        write: (t) => ctx.io.err(t),
      });
      if (ctx.json) return ctx.printJson({ id: repo, folder, files: files.required });
      ctx.io.out(`${repo}: ${folder}\n`);
    });

  models
    .command('list')
    .description('the cached models: id, size, files, last used')
    .action(() => {
      const cacheDir = service().cacheDir();
      const rows = listCached(cacheDir).map(({ folder, manifest }) => ({
        id: manifest.revision === 'main' ? manifest.id : `${manifest.id}@${manifest.revision}`,
        size: manifest.files.reduce((sum, f) => sum + f.size, 0),
        files: manifest.files.length,
        last_used: lastUsed(folder)?.toISOString() ?? null,
        folder,
      }));
      if (ctx.json) return ctx.printJson({ cache_dir: cacheDir, models: rows });
      if (rows.length === 0) return ctx.io.out(`No models in ${cacheDir}. \`kbctx models pull <id>\` fetches one.\n`);
      ctx.io.out(
        formatTable(
          ['Id', 'Size', 'Files', 'Last used'],
          rows.map((r) => [
            r.id,
            formatBytes(r.size),
            String(r.files),
            r.last_used?.replace('T', ' ').slice(0, 19) ?? '-',
          ]),
        ),
      );
    });

  models
    .command('rm')
    .description('remove a model from the cache')
    .argument('<id>', 'hub id or Context Harness name')
    .action((id: string) => {
      const repo = hubId(id);
      const cacheDir = service().cacheDir();
      const entry = listCached(cacheDir).find((m) => m.manifest.id === repo);
      const folder = entry?.folder ?? modelFolder(cacheDir, repo);
      if (!entry && !existsSync(folder))
        throw notFound(`model "${repo}" is not in the cache (${cacheDir}); \`kbctx models list\` shows what is`);
      rmSync(folder, { recursive: true, force: true });
      if (ctx.json) return ctx.printJson({ removed: repo, folder });
      ctx.io.out(`removed ${repo} (${folder})\n`);
    });
}
