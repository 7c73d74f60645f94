// First-party plugin: compiled (JavaScript) extensions (docs/extensions.md, ADR 0071). At `boot` it
// loads the `[extensions] modules` (load-extensions.ts) and has the host apply each as a plugin (an
// adapter onto the one tool, agent and connector shapes: `tools.add`, `agents.add`, `createConnector`);
// it adds `kbctx extension init` (the `commands` hook). Loader and scaffold are imported on use.
import { definePlugin, hostService, type ConfigSection } from '../../core/api/plugin.ts';
import { cliService } from '../cli/api.ts';
import { extensionsConfigOf, extensionsService, type ExtensionsConfig } from './api.ts';

/** `[extensions]` (ADR 0250): declared here, not in a module of its own (start-up loads no more modules: ADR 0130). */
const extensionsSection: ConfigSection<ExtensionsConfig> = {
  schema: {
    type: 'object',
    properties: {
      modules: { type: 'array', items: { type: 'string' }, default: [] },
      timeout: { type: 'number', exclusiveMinimum: 0, default: 30 },
    },
    additionalProperties: false,
  },
  toConfig: (t, at) => ({
    modules: t['modules'] as string[],
    baseDir: at.resolvePath('.'),
    timeoutSecs: t['timeout'] as number,
  }),
  // Modules listed: this plugin must be loaded, and their connector types are known only once they are.
  needs: { provides: 'extensions:modules', key: 'modules', why: 'compiled extensions are loaded by' },
  addsConnectorTypes: (t) => (t['modules'] as string[]).length > 0,
};

const plugin = definePlugin({
  name: 'extensions',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['extensions:modules', 'command:extension'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  configSections: { extensions: extensionsSection },
  apply(kernel) {
    kernel.provide(extensionsService, {
      load: async (config, deps) => (await import('./load-extensions.ts')).loadExtensions(config, deps),
    });
    const host = kernel.use(hostService);
    const { modules, timeoutSecs } = extensionsConfigOf(host.config);
    // Each module's init runs under `[extensions] timeout`: loading ends within their sum, with a margin.
    kernel.hooks.boot.tapPromise({ name: 'extensions', timeout: modules.length * timeoutSecs + 10 }, async (ctx) => {
      if (modules.length > 0) await (await import('./load-configured.ts')).loadConfiguredExtensions(host, ctx);
    });
    kernel.hooks.commands.tapPromise({ name: 'extensions', commands: ['extension'] }, async (program) =>
      (await import('./extension-command.ts')).registerExtension(program, kernel.use(cliService)),
    );
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
