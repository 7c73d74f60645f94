// The `[extensions] modules` at `boot`: loaded in config order, each module that loads applied by the
// host as a plugin (after the configured plugins); the ones that fail are reported, not thrown. An
// agent's `context` is the plugin context's search/get/sources (the built-in tools' answers).
import { VERSION, type HostInfo, type PluginContext } from '../../core/index.ts';
import { extensionsConfigOf, type ExtensionAgentContext } from './api.ts';
import { loadExtensions } from './load-extensions.ts';

export async function loadConfiguredExtensions(host: HostInfo, ctx: PluginContext): Promise<void> {
  // The bundled plugins' tools (search, get, sources from tools-builtin) are not an extension's to take.
  const reservedTools = new Set(
    host
      .plugins()
      .filter((p) => p.origin === 'bundled')
      .flatMap((p) => p.provides)
      .filter((what) => what.startsWith('tool:'))
      .map((what) => what.slice('tool:'.length)),
  );
  const context: ExtensionAgentContext = {
    search: (params) => ctx.search(params),
    get: (id) => ctx.get(id),
    sources: () => ctx.sources(),
  };
  const loaded = await loadExtensions(extensionsConfigOf(host.config), {
    version: VERSION,
    context,
    reservedTools,
    warn,
  });
  for (const { plugin, file } of loaded.plugins) await host.applyPlugin(plugin, file);
  host.reportFailures(loaded.failures);
}

/** Item warnings of extension connectors (a bad item is skipped). */
const warn = (message: string): void => void process.stderr.write(`warning: ${message}\n`);
