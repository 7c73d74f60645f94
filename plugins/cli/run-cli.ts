// Builds the `kbctx` command tree and runs it. The one place that turns errors into exit codes
// (through the error table) and usage mistakes into exit 2. Only the invoked command's module is
// imported (start-up cost): core's own from the table below, a plugin's through the `commands` taps
// that name it (search, get, sources: tools-builtin); help, completions and unknown commands load them all.
import { AsyncSeriesHook } from 'tapable';
import { Command, CommanderError } from 'commander';
import { findConfig, type KernelHooks } from '../../core/api/host.ts';
import { KbctxError } from '../../core/api/plugin.ts';
import { errorMapping } from '../../core/api/host.ts';
import { PluginError } from '../../core/api/plugin.ts';
import { toSafeLines } from '../../core/api/host.ts';
import { VERSION } from '../../core/api/host.ts';
import { CliContext, type CliIO, type GlobalOptions } from './context.ts';
import { cliService } from './api.ts';

const EXIT_USAGE = 2;

type Register = (program: Command, ctx: CliContext) => void;

/** The host's own command name → its module, in help order. A feature's command comes from its plugin. */
const COMMANDS: Record<string, () => Promise<Register>> = {
  init: async () => (await import('./commands/init.ts')).registerInit,
  sync: async () => (await import('./commands/sync.ts')).registerSync,
  embed: async () => (await import('./commands/embed.ts')).registerEmbed,
  start: async () => (await import('./commands/start.ts')).registerStart,
  serve: async () => (await import('./commands/serve.ts')).registerServe,
  completions: async () => (await import('./commands/completions.ts')).registerCompletions,
  connector: async () => (await import('./commands/connector.ts')).registerConnector,
  tool: async () => (await import('./commands/tool.ts')).registerTool,
  agent: async () => (await import('./commands/agent.ts')).registerAgent,
  doctor: async () => (await import('./commands/doctor.ts')).registerDoctor,
  plugins: async () => (await import('./commands/plugins.ts')).registerPlugins,
};

/** The first argument that is not a global option: the command's name. */
function commandName(argv: readonly string[]): string | undefined {
  let i = 0;
  while (i < argv.length && argv[i]!.startsWith('-')) i += argv[i] === '-c' || argv[i] === '--config' ? 2 : 1;
  return argv[i];
}

/** The command modules this invocation needs: the named command, none for a bare --version, else all. */
async function commandsFor(argv: readonly string[]): Promise<Register[]> {
  const name = commandName(argv);
  if (name !== undefined && name !== 'completions' && Object.hasOwn(COMMANDS, name)) return [await COMMANDS[name]!()];
  if (name === undefined && (argv.includes('-V') || argv.includes('--version'))) return [];
  return Promise.all(Object.values(COMMANDS).map((load) => load()));
}

function buildProgram(ctx: CliContext, program: Command): Command {
  program
    .name('kbctx')
    .description('kbctx: a knowledge-base context server for AI agents')
    .version(VERSION, '-V, --version')
    .option(
      '-c, --config <path>',
      'config file, TOML or a kbctx.config.mjs module (default: $KBCTX_CONFIG, $CTX_CONFIG, ./config/kbctx.toml, ./config/kbctx.config.mjs, .ctx/config.toml, ./config/ctx.toml)',
    )
    .option('--json', 'machine-readable JSON output')
    .showHelpAfterError('(run `kbctx --help` for usage)')
    .addHelpText('after', () => `\nConfig in use: ${describeConfig(ctx)}\n`)
    .exitOverride()
    .hook('preAction', () => ctx.prepare())
    .configureOutput({ writeOut: (s) => ctx.io.out(s), writeErr: (s) => ctx.io.err(s) });
  return program;
}

function addCommands(ctx: CliContext, program: Command, commands: readonly Register[]): void {
  for (const register of commands) register(program, ctx);
  for (const cmd of program.commands) routeThroughContext(ctx, cmd);
}

/** A subcommand's errors and output go through the CLI context (exit codes, captured io), as the program's do. */
function routeThroughContext(ctx: CliContext, cmd: Command): void {
  cmd.exitOverride().configureOutput({ writeOut: (s) => ctx.io.out(s), writeErr: (s) => ctx.io.err(s) });
}

/** Runs the CLI and resolves to the process exit code. */
export async function runCli(argv: readonly string[], io: CliIO): Promise<number> {
  const program = new Command();
  const ctx = new CliContext(io, () => program.opts<GlobalOptions>());
  try {
    buildProgram(ctx, program);
    if (!(await addNamedPluginCommand(ctx, program, argv))) {
      addCommands(ctx, program, await commandsFor(argv));
      if (needsPluginCommands(program, argv)) await addPluginCommands(ctx, program, argv);
    }
    await program.parseAsync([...argv], { from: 'user' });
    return 0;
  } catch (error) {
    return reportError(ctx, error);
  } finally {
    await ctx.close();
  }
}

/**
 * Plugins add commands and subcommands (`commands` hook): the config's plugins are loaded only when
 * the built-in commands do not know what was asked for (a plugin's command, `kbctx tool init` from the
 * Lua bridge), for help and for completions, so built-in commands start as fast as before.
 */
function needsPluginCommands(program: Command, argv: readonly string[]): boolean {
  if (argv.includes('--help') || argv.includes('-h')) return true;
  const name = commandName(argv);
  if (name === undefined) return false;
  if (name === 'help' || name === 'completions') return true; // they show every command
  const command = program.commands.find((c) => c.name() === name);
  if (!command) return true;
  if (command.commands.length === 0) return false;
  // No subcommand (`kbctx tool`): its help lists every subcommand, plugins' too, as `kbctx tool --help` does.
  const sub = commandName(argv.slice(argv.indexOf(name) + 1));
  return sub === undefined || !command.commands.some((c) => c.name() === sub || c.aliases().includes(sub));
}

/** `kbctx tool`: a command with subcommands given none shows its help. */
function missingSubcommand(program: Command, argv: readonly string[]): boolean {
  const name = commandName(argv);
  const command = program.commands.find((c) => c.name() === name);
  return (
    name !== undefined &&
    command !== undefined &&
    command.commands.length > 0 &&
    commandName(argv.slice(argv.indexOf(name) + 1)) === undefined
  );
}

const helpAsked = (argv: readonly string[]): boolean =>
  argv.includes('--help') || argv.includes('-h') || commandName(argv) === 'help' || commandName(argv) === 'completions';

/**
 * A command that is not the host's own, run (not help): only the `commands` taps that name it are
 * called, with the bundled plugins the index applies (tools-builtin's `search`); false when none does.
 */
async function addNamedPluginCommand(ctx: CliContext, program: Command, argv: readonly string[]): Promise<boolean> {
  const name = commandName(argv);
  if (name === undefined || Object.hasOwn(COMMANDS, name) || helpAsked(argv)) return false;
  program.parseOptions([...argv]); // -c and --json, before the command is known
  await ctx.prepare();
  const kbctx = ctx.kbctx();
  provideCli(ctx);
  const before = new Set(program.commands);
  if (!(await addDeclaredCommand(kbctx.kernel.hooks, program, name))) return false;
  for (const cmd of program.commands.filter((c) => !before.has(c))) routeThroughContext(ctx, cmd);
  return true;
}

/** The `kbctx.cli` service, for the commands plugins add. */
function provideCli(ctx: CliContext): void {
  const { services } = ctx.kbctx().kernel;
  if (!services.has(cliService)) services.provide(cliService, ctx, 'kbctx');
}

async function addPluginCommands(ctx: CliContext, program: Command, argv: readonly string[]): Promise<void> {
  const help = helpAsked(argv) || missingSubcommand(program, argv);
  try {
    program.parseOptions([...argv]); // -c and --json, before the command is known
    await ctx.prepare();
    const kbctx = ctx.kbctx();
    provideCli(ctx);
    // A configured plugin that cannot load (a changed pin) must not take the bundled commands with it:
    // `kbctx registry add plugins/<name> --trust` is how it is trusted again.
    const unloaded = await kbctx.ready().then(
      () => null,
      (error: unknown) => error,
    );
    const before = new Set(program.commands);
    await kbctx.kernel.hooks.commands.promise(program);
    if (unloaded !== null && !program.commands.some((c) => !before.has(c) && c.name() === commandName(argv)))
      throw unloaded;
    for (const cmd of program.commands.filter((c) => !before.has(c))) routeThroughContext(ctx, cmd);
  } catch (error) {
    if (!help) throw error; // help and completions still show the built-in commands when the config cannot load
  }
}

/** Which config file commands would use, found without reading it (for --help). */
function describeConfig(ctx: CliContext): string {
  const found = findConfig({ configPath: ctx.globalOptions().config, cwd: ctx.io.cwd, env: ctx.io.env });
  return found.file === null
    ? 'none found, the built-in default (indexes Markdown and text under ./)'
    : `${found.file} (${found.via})`;
}

/**
 * A user-facing error a third-party plugin raised reads as its own message; a trailing hint names the plugin (a bundled
 * one is kbctx itself).
 */
function pluginHint(ctx: CliContext, error: KbctxError): string {
  if (!(error instanceof PluginError) || !error.ownMessage) return '';
  return ctx.pluginOrigin(error.plugin) === 'bundled' ? '' : ` (from plugin '${error.plugin}')`;
}

/** Under KBCTX_DEBUG, the stack of what a plugin threw (a wrong result has none: the message says it all). */
function printCauseStack(ctx: CliContext, error: PluginError): void {
  if (ctx.io.env['KBCTX_DEBUG'] && error.cause instanceof Error)
    ctx.io.err(`${error.cause.stack ?? error.cause.message}\n`);
}

function reportError(ctx: CliContext, error: unknown): number {
  if (error instanceof CommanderError) {
    // Help asked for (--help, `help`) is 0; help shown because a subcommand is missing is a usage error.
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return 0;
    return error.exitCode === 0 ? 0 : EXIT_USAGE; // commander already printed the message
  }
  if (error instanceof KbctxError) {
    // Messages echo what the user gave (a config key, a path, a plugin name): capped like log lines.
    const message = toSafeLines(error.message);
    if (ctx.json) ctx.io.err(`${JSON.stringify({ error: { code: error.code, message } })}\n`);
    else ctx.io.err(`error: ${message}${pluginHint(ctx, error)}\n`);
    if (error instanceof PluginError) printCauseStack(ctx, error);
    return errorMapping(error.code).exit;
  }
  const id = Math.random().toString(36).slice(2, 10);
  ctx.io.err(
    `internal error ${id}: ${toSafeLines((error as Error)?.message ?? String(error))}\nThis is a bug in kbctx; please report it with the command you ran.\n`,
  );
  if (ctx.io.env['KBCTX_DEBUG']) ctx.io.err(`${(error as Error)?.stack ?? ''}\n`);
  return 1;
}

// Commands a plugin names in its `commands` tap (`tapPromise({ name, commands: ['search'] }, …)`): for
// one of them only the taps that name it are called, so `kbctx search` imports tools-builtin's command
// module and no other plugin's (ADR 0130, start-up; ADR 0162). The taps are already wrapped by the
// attribution, and run through a hook of the same kind, in their order.
interface CommandsTap {
  name: string;
  type: 'sync' | 'async' | 'promise';
  fn: (...args: never[]) => unknown;
  commands?: readonly string[];
}

/** Calls the `commands` taps naming `name`; false when none does (the caller then calls them all). */
export async function addDeclaredCommand(
  hooks: Pick<KernelHooks, 'commands'>,
  program: Command,
  name: string,
): Promise<boolean> {
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
