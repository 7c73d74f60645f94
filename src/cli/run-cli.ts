// Builds the `lore` command tree and runs it. The one place that turns errors into exit codes
// (through the error table) and usage mistakes into exit 2.
import { Command, CommanderError } from 'commander';
import { LoreError } from '../core/errors.ts';
import { errorMapping } from '../core/error-table.ts';
import { VERSION } from '../version.ts';
import { registerAgent } from './commands/agent.ts';
import { registerCompletions } from './commands/completions.ts';
import { registerConnector } from './commands/connector.ts';
import { registerEmbed } from './commands/embed.ts';
import { registerExport } from './commands/export.ts';
import { registerExtension } from './commands/extension.ts';
import { registerGet } from './commands/get.ts';
import { registerInit } from './commands/init.ts';
import { registerRegistry } from './commands/registry.ts';
import { registerSearch } from './commands/search.ts';
import { registerServe } from './commands/serve.ts';
import { registerSources } from './commands/sources.ts';
import { registerStart } from './commands/start.ts';
import { registerStats } from './commands/stats.ts';
import { registerSync } from './commands/sync.ts';
import { registerTool } from './commands/tool.ts';
import { CliContext, type CliIO, type GlobalOptions } from './context.ts';

const EXIT_USAGE = 2;

function buildProgram(ctx: CliContext, program: Command): Command {
  program
    .name('lore')
    .description('Lore: a knowledge-base context server for AI agents')
    .version(VERSION, '-V, --version')
    .option('-c, --config <path>', 'config file (default: $LORE_CONFIG or ./config/lore.toml)')
    .option('--json', 'machine-readable JSON output')
    .showHelpAfterError('(run `lore --help` for usage)')
    .exitOverride()
    .configureOutput({ writeOut: (s) => ctx.io.out(s), writeErr: (s) => ctx.io.err(s) });
  for (const register of [
    registerInit,
    registerSync,
    registerSearch,
    registerGet,
    registerSources,
    registerStats,
    registerExport,
    registerEmbed,
    registerStart,
    registerRegistry,
    registerServe,
    registerCompletions,
    registerConnector,
    registerTool,
    registerAgent,
    registerExtension,
  ]) {
    register(program, ctx);
  }
  for (const cmd of program.commands) cmd.exitOverride().configureOutput({ writeOut: (s) => ctx.io.out(s), writeErr: (s) => ctx.io.err(s) });
  return program;
}

/** Runs the CLI and resolves to the process exit code. */
export async function runCli(argv: readonly string[], io: CliIO): Promise<number> {
  const program = new Command();
  const ctx = new CliContext(io, () => program.opts<GlobalOptions>());
  buildProgram(ctx, program);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return 0;
  } catch (error) {
    return reportError(ctx, error);
  } finally {
    ctx.close();
  }
}

function reportError(ctx: CliContext, error: unknown): number {
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return 0;
    return error.exitCode === 0 ? 0 : EXIT_USAGE; // commander already printed the message
  }
  if (error instanceof LoreError) {
    if (ctx.json) ctx.io.err(`${JSON.stringify({ error: { code: error.code, message: error.message } })}\n`);
    else ctx.io.err(`error: ${error.message}\n`);
    return errorMapping(error.code).exit;
  }
  const id = Math.random().toString(36).slice(2, 10);
  ctx.io.err(`internal error ${id}: ${(error as Error)?.message ?? String(error)}\nThis is a bug in Lore; please report it with the command you ran.\n`);
  if (ctx.io.env['LORE_DEBUG']) ctx.io.err(`${(error as Error)?.stack ?? ''}\n`);
  return 1;
}
