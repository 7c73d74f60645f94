// First-party plugin: compiled (JavaScript) extensions (docs/extensions.md, ADR 0071). Provides the
// `kbctx.extensions` service, the loader that turns each `[extensions] modules` entry into a plugin the
// host applies, and `kbctx extension init` (the `commands` hook). Loader and scaffold are imported on use.
import { cliService, definePlugin, extensionsService } from '../../core/api/plugin.ts';

const plugin = definePlugin({
  name: 'extensions',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['command:extension'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(kernel) {
    kernel.provide(extensionsService, {
      load: async (config, deps) => (await import('./load-extensions.ts')).loadExtensions(config, deps),
    });
    kernel.hooks.commands.tapPromise({ name: 'extensions', commands: ['extension'] }, async (program) => (await import('./extension-command.ts')).registerExtension(program, kernel.use(cliService)));
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
