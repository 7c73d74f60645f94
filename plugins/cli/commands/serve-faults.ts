// What `kbctx serve` does with an error no one caught (ADR 0142): a plugin's own timer or floating
// promise must not take the server down. While the server runs:
// 1. an uncaught exception or unhandled rejection whose stack runs through a loaded plugin's files is
//    logged naming the plugin, and the server keeps serving;
// 2. an unhandled rejection from elsewhere is logged (with its stack) and the server keeps serving:
//    nothing was interrupted half-way, a promise merely had no handler;
// 3. an uncaught exception from elsewhere (kbctx itself, a library) is logged and the process exits 1:
//    it interrupted code mid-way, and a supervisor restarts a clean process.
import { pluginOfError, type PluginLocation } from './fault-attribution.ts';
import type { Kernel } from '../../../core/api/host.ts';
import { packageRoot } from '../../../core/api/host.ts';

/**
 * Installs the policy's process handlers for a server over `kernel`'s plugins (read at each fault:
 * plugins load after the guard is set); returns the function that removes them.
 */
export function guardServerFaults(
  kernel: Pick<Kernel, 'plugins'>,
  log: (line: string) => void,
  exit: (code: number) => void = (code) => process.exit(code),
): () => void {
  const root = packageRoot();
  // Bundled plugins are kbctx itself: their faults count as "elsewhere" (rules 2 and 3).
  const plugins = (): PluginLocation[] =>
    kernel
      .plugins()
      .flatMap((p) => (p.origin !== 'bundled' && p.entry !== undefined ? [{ name: p.name, entry: p.entry }] : []));
  const describe = (error: unknown): string =>
    error instanceof Error
      ? (error.stack ?? `${error.name}: ${error.message}`)
      : `a non-error value: ${safeString(error)}`;
  const report = (kind: 'uncaught exception' | 'unhandled rejection', error: unknown): string | undefined => {
    const plugin = pluginOfError(error, plugins(), root);
    if (plugin !== undefined)
      log(`plugin '${plugin}' failed outside a hook (${kind}), still serving: ${describe(error)}`);
    return plugin;
  };
  const onException = (error: unknown): void => {
    if (report('uncaught exception', error) !== undefined) return;
    log(`uncaught exception (not from a plugin), stopping: ${describe(error)}`);
    exit(1);
  };
  const onRejection = (reason: unknown): void => {
    if (report('unhandled rejection', reason) !== undefined) return;
    log(`unhandled rejection (not from a plugin), still serving: ${describe(reason)}`);
  };
  process.on('uncaughtException', onException);
  process.on('unhandledRejection', onRejection);
  return () => {
    process.off('uncaughtException', onException);
    process.off('unhandledRejection', onRejection);
  };
}

function safeString(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
