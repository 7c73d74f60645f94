// Builds the `kbctx` command tree and runs it. The one place that turns errors into exit codes
// (through the error table) and usage mistakes into exit 2. It holds no command of its own: every
// command comes through the `commands` hook, the cli plugin's own too (its index taps it; ADR 0190).
import { Command, CommanderError } from 'commander';
import { findConfig, type Kernel } from '../../core/api/host.ts';
import { errorMapping, KbctxError, PluginError } from '../../core/api/host.ts';
import { toSafeLines } from '../../core/api/host.ts';
import { VERSION } from '../../core/api/host.ts';
import { CliContext, type CliIO, type GlobalOptions } from './context.ts';

const EXIT_USAGE = 2;

function buildProgram(ctx: CliContext, program: Command): Command {
  program
    .name('kbctx')
    .description('kbctx: a knowledge-base context server for AI agents')
    .version(VERSION, '-V, --version')
    .option(
      '-c, --config <path>',
      'config file, TOML or a kbctx.config.mjs module (default: $KBCTX_CONFIG, $CTX_CONFIG, ./config/kbctx.toml, ' +
        './config/kbctx.config.mjs, .ctx/config.toml, ./config/ctx.toml)',
    )
    .option('--json', 'machine-readable JSON output')
    .showHelpAfterError('(run `kbctx --help` for usage)')
    .addHelpText('after', () => `\nConfig in use: ${describeConfig(ctx)}\n`)
    .exitOverride()
    .hook('preAction', () => ctx.prepare())
    .configureOutput({ writeOut: (s) => ctx.io.out(s), writeErr: (s) => ctx.io.err(s) });
  return program;
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
    if (!versionOnly(argv)) {
      await addCommands(ctx, program, argv);
      for (const cmd of program.commands) routeThroughContext(ctx, cmd);
    }
    await program.parseAsync([...argv], { from: 'user' });
    return 0;
  } catch (error) {
    return reportError(ctx, error);
  } finally {
    await ctx.close();
  }
}

/** A bare `--version` needs no command. */
const versionOnly = (argv: readonly string[]): boolean =>
  commandName(argv) === undefined && (argv.includes('-V') || argv.includes('--version'));

// Which `commands` taps are called (ADR 0130 start-up, 0162, 0190). For a command being run, only the
// taps naming it are called, before the configured plugins load (`kbctx search` imports tools-builtin's
// command module, `kbctx sync` the cli plugin's sync.ts, nothing else); every tap, after `ready()`, for
// help, completions, a bare `kbctx` and a command no bundled tap names (a configured plugin's, an unknown
// one); the taps naming none or this one for a subcommand the named taps do not add (`kbctx tool init`:
// the Lua bridge's), and for `<command> --help` when the named taps leave its subcommands out. When the
// config does not load, the taps are the cli plugin's alone, on a bare kernel: its commands read the
// config when they run (doctor reports it), help still lists them.

// A `commands` tap as tapable holds it (already wrapped by the attribution), with its named commands.
interface CommandsTap {
  name: string;
  type: 'sync' | 'async' | 'promise';
  fn: (...args: never[]) => unknown;
  commands?: readonly string[];
}

/** The first argument that is not a global option: the command's name. */
function commandName(argv: readonly string[]): string | undefined {
  let i = 0;
  while (i < argv.length && argv[i]!.startsWith('-')) i += argv[i] === '-c' || argv[i] === '--config' ? 2 : 1;
  return argv[i];
}

/** `kbctx --help` (`-h` before any command too), `help`, `completions`, a bare `kbctx`: every command is listed. */
function listsAll(argv: readonly string[]): boolean {
  const name = commandName(argv);
  if (name === undefined || name === 'help' || name === 'completions') return true;
  const before = argv.slice(0, argv.indexOf(name));
  return before.includes('--help') || before.includes('-h');
}

const helpFlag = (argv: readonly string[]): boolean => argv.includes('--help') || argv.includes('-h');

/** The command and, when it has subcommands, the one asked for are on the program. */
function complete(program: Command, argv: readonly string[]): boolean {
  const name = commandName(argv);
  const command = program.commands.find((c) => c.name() === name);
  if (!command) return false;
  if (command.commands.length === 0) return true;
  const sub = commandName(argv.slice(argv.indexOf(name!) + 1));
  return sub !== undefined && command.commands.some((c) => c.name() === sub || c.aliases().includes(sub));
}

/** Adds the commands this invocation needs to `program` (see the file comment). */
async function addCommands(ctx: CliContext, program: Command, argv: readonly string[]): Promise<void> {
  program.parseOptions([...argv]); // -c and --json, before the command is known
  await ctx.prepare();
  const host = await commandsHost(ctx);
  if (!host.kernel.has('cli')) program.showHelpAfterError(await cliDropped());
  const name = commandName(argv);
  const called = new Set<CommandsTap>();
  const all = listsAll(argv);
  if (!all) {
    await callTaps(host.kernel, program, called, (t) => t.commands?.includes(name!) === true);
    if (called.size > 0 && complete(program, argv)) return;
  }
  const sub = called.size > 0; // the command is there; its subcommand is not, or none was given
  try {
    // A configured plugin that cannot load (a changed pin) must not take the bundled commands with it:
    // `kbctx registry add plugins/<name> --trust` is how it is trusted again.
    const unloaded = await host.ready();
    await callTaps(host.kernel, program, called, (t) => !sub || !t.commands?.length || t.commands.includes(name!));
    if (unloaded !== null && !complete(program, argv)) throw unloaded;
  } catch (error) {
    // Help, completions and a group's own help (`kbctx tool`) still show what was added when the config cannot load.
    if (!all && !helpFlag(argv) && !missingSubcommand(program, argv)) throw error;
  }
}

/** `kbctx tool`: a command with subcommands given none shows its help. */
function missingSubcommand(program: Command, argv: readonly string[]): boolean {
  const name = commandName(argv);
  const command = program.commands.find((c) => c.name() === name);
  return (
    command !== undefined &&
    command.commands.length > 0 &&
    commandName(argv.slice(argv.indexOf(name!) + 1)) === undefined
  );
}

/** What a usage error adds when the config drops the cli plugin: whose commands are gone. */
async function cliDropped(): Promise<string> {
  const { default: cli } = await import('./index.ts');
  const names = (cli.provides ?? []).map((p) => p.replace(/^command:/, ''));
  return `(run \`kbctx --help\` for usage; plugins drops 'cli' ("!cli"), whose commands are ${names.join(', ')})`;
}

interface CommandsHost {
  kernel: Kernel;
  /** Loads the configured plugins; resolves to why they (or the config) could not load, or null. */
  ready(): Promise<unknown>;
}

/** The host's kernel, the `kbctx.cli` service provided; a bare one with the cli plugin when the host cannot open. */
async function commandsHost(ctx: CliContext): Promise<CommandsHost> {
  let kernel: Kernel;
  let ready: () => Promise<unknown>;
  try {
    const kbctx = ctx.kbctx();
    kernel = kbctx.kernel;
    ready = () =>
      kbctx.ready().then(
        () => null,
        (error: unknown) => error,
      );
  } catch (error) {
    const [{ loadHost }, { default: cli }] = await Promise.all([
      import('../../core/api/host.ts'),
      import('./index.ts'),
    ]);
    kernel = new (await loadHost()).Kernel();
    kernel.applySync(cli, {}, 'bundled', cli.name);
    ready = async () => error;
  }
  // The cli's contract entry and tapable load with the host, not for `kbctx --version` (ADR 0130).
  const { cliService } = await import('./api.ts');
  if (!kernel.services.has(cliService)) kernel.services.provide(cliService, ctx, 'kbctx');
  return { kernel, ready };
}

/** Calls the taps `which` selects that were not called yet, in their order, through a hook of the same kind. */
async function callTaps(
  kernel: Kernel,
  program: Command,
  called: Set<CommandsTap>,
  which: (tap: CommandsTap) => boolean,
): Promise<void> {
  const { AsyncSeriesHook } = await import('tapable');
  const only = new AsyncSeriesHook<[Command]>(['program']);
  for (const t of kernel.hooks.commands.taps as unknown as CommandsTap[]) {
    if (called.has(t) || !which(t)) continue;
    called.add(t);
    if (t.type === 'promise') only.tapPromise(t.name, t.fn as (p: Command) => Promise<void>);
    else if (t.type === 'async') only.tapAsync(t.name, t.fn as (p: Command, done: () => void) => void);
    else only.tap(t.name, t.fn as (p: Command) => void);
  }
  await only.promise(program);
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
    `internal error ${id}: ${toSafeLines((error as Error)?.message ?? String(error))}\nThis is a bug in kbctx; ` +
      `please report it with the command you ran.\n`,
  );
  if (ctx.io.env['KBCTX_DEBUG']) ctx.io.err(`${(error as Error)?.stack ?? ''}\n`);
  return 1;
}
