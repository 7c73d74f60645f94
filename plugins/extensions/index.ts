// First-party plugin: compiled (JavaScript) extensions (docs/extensions.md, ADR 0071). At `boot` it
// loads the `[extensions] modules` (load-extensions.ts) and has the host apply each as a plugin (an
// adapter onto the one tool, agent and connector shapes: `tools.add`, `agents.add`, `createConnector`);
// it adds `kbctx extension init` (the `commands` hook). Loader and scaffold are imported on use.
import { definePlugin, hostService } from '../../core/api/plugin.ts';
import { cliService } from '../cli/api.ts';
import { extensionsService } from './api.ts';

const plugin = definePlugin({
  name: 'extensions',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['extensions:modules', 'command:extension'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(kernel) {
    kernel.provide(extensionsService, {
      load: async (config, deps) => (await import('./load-extensions.ts')).loadExtensions(config, deps),
    });
    const host = kernel.use(hostService);
    const { modules, timeoutSecs } = host.config.extensions;
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
