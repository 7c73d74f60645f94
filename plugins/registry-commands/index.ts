// First-party plugin: `kbctx registry …` (list, install, update, search, info, add, override, init)
// through the `commands` hook (its tap names `registry`, so only it is called for that command), over the
// registry library in registry/, imported when a registry command runs; `doctor` lines for the
// configured registries.
import { definePlugin, hostService } from '../../core/api/plugin.ts';
import { cliService } from '../cli/api.ts';

const plugin = definePlugin({
  name: 'registry-commands',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['command:registry', 'doctor:registries'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(kernel) {
    kernel.hooks.commands.tapPromise({ name: 'registry-commands', commands: ['registry'] }, async (program) =>
      (await import('./registry-command.ts')).registerRegistry(program, kernel.use(cliService)),
    );
    // `kbctx doctor`: one line per configured registry (installed, scanned, or how to install it).
    kernel.hooks.doctor.tapPromise('registry-commands', async (checks) => {
      const { config } = kernel.use(hostService);
      if (Object.keys(config.registries).length === 0) return;
      const { registryChecks } = await import('./registry-checks.ts');
      for (const check of registryChecks(config)) checks.add(check);
    });
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
