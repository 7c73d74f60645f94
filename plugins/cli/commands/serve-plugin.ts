// `kbctx serve <name>` for a transport a plugin provides (`createTransport.for(name)`): opens the
// index, loads plugins, scripts and extensions, starts the transport, prints what it serves and runs
// until SIGINT/SIGTERM. Loaded lazily like serve-entry.ts.
import { KbctxError } from '../../../core/api/plugin.ts';
import type { CliContext } from '../context.ts';
import type { Kbctx } from '../../../core/api/host.ts';
import { lineLog } from '../../../core/api/host.ts';
import { guardServerFaults } from './serve-faults.ts';
import { HTTP_HANDLER_TRANSPORT } from '../../transport-http/api.ts';
import { serverConfigOf } from '../../transport-http/api.ts';

export async function serveWithPlugin(
  ctx: CliContext,
  name: string,
  options: { bind?: string | undefined },
): Promise<void> {
  const kbctx = ctx.kbctx('create');
  const log = lineLog(ctx.io.err);
  const unguard = guardServerFaults(kbctx.kernel, log); // ADR 0142, as `kbctx serve mcp`
  try {
    await serveUntilSignal(kbctx, name, options, ctx, log);
  } finally {
    unguard();
  }
}

async function serveUntilSignal(
  kbctx: Kbctx,
  name: string,
  options: { bind?: string | undefined },
  ctx: CliContext,
  log: (line: string) => void,
): Promise<void> {
  for (const f of await kbctx.ready()) log(`warning: ${f.label} not loaded: ${f.message}`);
  const hook = kbctx.kernel.hooks.createTransport.get(name);
  if (!hook?.isUsed() || name === HTTP_HANDLER_TRANSPORT) {
    const names = [...new Set(['mcp', 'stdio', ...kbctx.kernel.tappedKeys('createTransport').keys()])].filter(
      (n) => n !== HTTP_HANDLER_TRANSPORT,
    );
    throw new KbctxError(
      'usage',
      `no transport named '${name}'; transports: ${names.join(', ')} (plugins add others with createTransport)`,
    );
  }
  const running = await hook.promise(
    {
      bind: options.bind ?? serverConfigOf(kbctx.config).bind,
      options: { ...(kbctx.config.plugins.options[name] ?? {}) },
    },
    kbctx.kernel.callContext(),
  );
  if (!running)
    throw new KbctxError(
      'usage',
      `transport '${name}': no plugin started it (every createTransport tap returned nothing)`,
    );
  for (const line of running.describe?.() ?? [`transport ${name} started`]) ctx.io.out(`${line}\n`);
  await kbctx.kernel.hooks.ready.promise(kbctx.kernel.callContext());
  await new Promise<void>((resolve) => {
    const stop = (signal: string): void => {
      log(`${signal}: shutting down`);
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      void running.close().finally(resolve);
    };
    const onInt = (): void => stop('SIGINT');
    const onTerm = (): void => stop('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
  });
}
