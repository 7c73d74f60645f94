// tools-builtin's commands `kbctx search`, `get` and `sources`, registered by its `commands` tap when
// one of them runs (or for help and completions).
import type { Command } from 'commander';
import type { CliProgram } from '../../../core/api/plugin.ts';
import type { CliContext } from '../../cli/api.ts';
import { registerGet } from './get.ts';
import { registerSearch } from './search.ts';
import { registerSources } from './sources.ts';

export function registerCommands(cli: CliProgram, ctx: CliContext): void {
  const program = cli as unknown as Command; // commander's Command at run time (core's CliProgram is its shape)
  registerSearch(program, ctx);
  registerGet(program, ctx);
  registerSources(program, ctx);
}
