// store-commands' commands `kbctx stats`, `export` and `migrate`, registered by its `commands` tap when
// one of them runs (or for help and completions).
import type { Command } from 'commander';
import type { CliProgram } from '../../../core/api/plugin.ts';
import type { CliContext } from '../../cli/api.ts';
import { registerExport } from './export.ts';
import { registerMigrate } from './migrate.ts';
import { registerStats } from './stats.ts';

export function registerCommands(cli: CliProgram, ctx: CliContext): void {
  const program = cli as unknown as Command; // commander's Command at run time (core's CliProgram is its shape)
  registerStats(program, ctx);
  registerExport(program, ctx);
  registerMigrate(program, ctx);
}
