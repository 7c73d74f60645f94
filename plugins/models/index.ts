// First-party plugin: models by name (ADR 0185). The service `kbctx.models` (api.ts) resolves a
// Hugging Face hub id to a folder in the model cache, fetching it on first use; `[models] cache_dir`;
// `kbctx models pull|list|rm` (named in the `commands` tap); `kbctx doctor` lines for the cache and
// the configured model. The fetcher loads when first used, never at start-up.
import { definePlugin, hostService, requireOwn, type ConfigSection } from '../../core/api/plugin.ts';
import { cliService } from '../cli/api.ts';
import { modelsConfigOf, modelsService, type ModelsConfig, type ModelsService } from './api.ts';

// Required on first use (the embedder's creation is synchronous), not with this index.
import type * as Service from './models-service.ts';

// `[models]`: where fetched models are cached. `cache_dir` resolves against the config root.
const modelsSection: ConfigSection<ModelsConfig> = {
  schema: {
    type: 'object',
    properties: {
      cache_dir: {
        type: 'string',
        description:
          'folder of the model cache (default: $XDG_CACHE_HOME/kbctx/models, ~/.cache/kbctx/models); ' +
          'KBCTX_MODELS_DIR overrides',
      },
    },
    additionalProperties: false,
  },
  toConfig: (s, at) => ({ cacheDir: typeof s['cache_dir'] === 'string' ? at.resolvePath(s['cache_dir']) : null }),
};

const plugin = definePlugin({
  name: 'models',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['service:kbctx.models', 'command:models', 'doctor:models'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  configSections: { models: modelsSection },
  apply(kernel) {
    let service: ModelsService | undefined;
    const load = (): ModelsService => {
      service ??= requireOwn<typeof Service>(import.meta.url, './models-service.ts').createModelsService(() => {
        const host = kernel.use(hostService);
        return { env: host.env, cacheDir: modelsConfigOf(host.config).cacheDir };
      });
      return service;
    };
    kernel.provide(modelsService, {
      cacheDir: () => load().cacheDir(),
      offline: () => load().offline(),
      cached: (id, files, revision) => load().cached(id, files, revision),
      fetch: (id, files, options) => load().fetch(id, files, options),
    });
    kernel.hooks.commands.tapPromise({ name: 'models', commands: ['models'] }, async (program) =>
      (await import('./models-command.ts')).registerModels(program, kernel.use(cliService)),
    );
    kernel.hooks.doctor.tapPromise('models', async (checks) => {
      const { config, env } = kernel.use(hostService);
      const { modelChecks } = await import('./models-checks.ts');
      for (const check of modelChecks(config, env)) checks.add(check);
    });
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
