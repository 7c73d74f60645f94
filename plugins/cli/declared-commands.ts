// Commands a plugin names in its `commands` tap (`tapPromise({ name, commands: ['search'] }, …)`): for
// one of them, run-cli calls only the taps that name it, so `kbctx search` imports tools-builtin's
// command module and no other plugin's (ADR 0130, start-up; ADR 0162). The taps are already wrapped
// by the attribution, and run through a hook of the same kind, in their order.
import { AsyncSeriesHook } from 'tapable';
import type { Command } from 'commander';
import type { KernelHooks } from '../../core/api/host.ts';

interface CommandsTap {
  name: string;
  type: 'sync' | 'async' | 'promise';
  fn: (...args: never[]) => unknown;
  commands?: readonly string[];
}

/** Calls the `commands` taps naming `name`; false when none does (the caller then calls them all). */
export async function addDeclaredCommand(hooks: Pick<KernelHooks, 'commands'>, program: Command, name: string): Promise<boolean> {
  const taps = (hooks.commands.taps as unknown as CommandsTap[]).filter((t) => t.commands?.includes(name) === true);
  if (taps.length === 0) return false;
  const only = new AsyncSeriesHook<[Command]>(['program']);
  for (const t of taps) {
    if (t.type === 'promise') only.tapPromise(t.name, t.fn as (p: Command) => Promise<void>);
    else if (t.type === 'async') only.tapAsync(t.name, t.fn as (p: Command, done: () => void) => void);
    else only.tap(t.name, t.fn as (p: Command) => void);
  }
  await only.promise(program);
  return true;
}
