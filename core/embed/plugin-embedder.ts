// The configured embedder from the plugin tapping `createEmbedder.for(provider)`; null when [embedding]
// is disabled. A provider no loaded plugin answers for is a config error naming the embedder plugins.
import type { Kernel } from '../kernel.ts';
import type { EmbeddingConfig } from '../config/types.ts';
import { configError } from '../domain/errors.ts';
import type { Embedder } from './embedder.ts';

export function embedderFromPlugins(
  kernel: Kernel,
  config: EmbeddingConfig,
  env: NodeJS.ProcessEnv,
  bundledBy: Readonly<Record<string, string>> = {},
): Embedder | null {
  if (config.provider === 'disabled') return null;
  const hook = kernel.hooks.createEmbedder.get(config.provider);
  const embedder = hook?.isUsed() ? hook.call({ ...config, env }, kernel.callContext()) : undefined;
  if (embedder) return embedder;
  const loaded = [...new Set([...kernel.tappedKeys('createEmbedder').values()].flat())];
  const bundled = bundledBy[config.provider];
  throw configError(
    `[embedding] provider = "${config.provider}": no loaded plugin provides this embedder` +
      (bundled ? ` (it is the bundled plugin ${bundled}, which is not loaded: check plugins in the config)` : '') +
      `; loaded embedder plugins: ${loaded.length > 0 ? loaded.join(', ') : 'none'}`,
  );
}
