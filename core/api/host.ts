// The program host's entry, a light entry of the public API (ADR 0170): what the cli plugin needs to
// start — finding the config, the error table, safe log lines, the version — and `loadHost()`, which
// imports the config loader, the composition root and the bundled set when a command first needs them
// (start-up cost, ADR 0130). Statically it loads only modules every command loads anyway.
export { findConfig, isConfigModule } from '../config/find-config.ts';
export { errorMapping } from '../domain/errors.ts';
// The error classes the CLI's runner reports, without the plugin API (`kbctx --version` loads neither: ADR 0130).
export { KbctxError } from '../domain/errors.ts';
export { PluginError } from '../plugin-error.ts';
export { lineLog, toSafeLines } from '../domain/log-line.ts';
export { VERSION } from '../config/version.ts';
export { packageRoot } from '../config/package-root.ts';
export type { ConfigModule } from '../config/config-module.ts';
export type { Kbctx } from '../app/compose.ts';
import type { openKbctx } from '../app/compose.ts';
import type { importConfig, loadConfig } from '../config/load-config.ts';
import type { Kernel } from '../kernel.ts';
export type { Kernel } from '../kernel.ts';
export type { KernelHooks } from '../hooks.ts';

/**
 * The config loader and the composition root, with the bundled plugin set handed in (registry/cli.ts set its loader);
 * `Kernel`, a bare plugin host (the CLI's commands when the config does not load).
 */
export async function loadHost(): Promise<{
  loadConfig: typeof loadConfig;
  importConfig: typeof importConfig;
  openKbctx: typeof openKbctx;
  Kernel: typeof Kernel;
}> {
  const [config, compose, kernel] = await Promise.all([
    import('../config/load-config.ts'),
    import('../app/compose.ts'),
    import('../kernel.ts'),
    import('../app/bundled-set.ts').then((b) => b.loadBundledPlugins()),
  ]);
  return {
    loadConfig: config.loadConfig,
    importConfig: config.importConfig,
    openKbctx: compose.openKbctx,
    Kernel: kernel.Kernel,
  };
}
