// `kbctx serve mcp [--bind host:port] [--stdio]`: the HTTP server (REST + MCP) or MCP over stdio;
// `kbctx serve stdio`: MCP over stdio; `kbctx serve <name>`: a transport a plugin provides.
import { InvalidArgumentError, type Command } from 'commander';
import type { CliContext } from '../context.ts';

/** `--flag value` or `--flag=value` among a transport's raw arguments. */
function flagValue(args: readonly string[], flag: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === flag) return args[i + 1];
    if (args[i]!.startsWith(`${flag}=`)) return args[i]!.slice(flag.length + 1);
  }
  return undefined;
}

export function registerServe(program: Command, ctx: CliContext): void {
  const serve = program
    .command('serve')
    .description(
      'run a server: mcp (REST + MCP over HTTP), stdio (MCP over stdin/stdout), or a transport a plugin provides',
    )
    .argument('[transport]', 'a transport provided by a plugin')
    .argument('[options...]', "the transport's options, e.g. --bind 127.0.0.1:0")
    // No options of its own: a `--bind` here would take the flag from `serve mcp --bind`.
    .allowUnknownOption()
    .action(async (name: string | undefined, rest: string[]) => {
      if (name === undefined) return serve.help({ error: true });
      const { serveWithPlugin } = await import('./serve-plugin.ts');
      await serveWithPlugin(ctx, name, { bind: flagValue(rest, '--bind') });
    });
  serve
    .command('stdio')
    .description(
      'speak MCP over stdin/stdout (for desktop clients that launch the server); same as `serve mcp --stdio`',
    )
    .option('--no-watch', 'do not watch filesystem connectors (overrides [server].watch; schedules still run)')
    // Answered by registry/cli.ts before the CLI loads (plugins/mcp-attach); declared here for help and usage.
    .option(
      '--attach <url>',
      "bridge stdio to a running server's MCP endpoint (e.g. http://127.0.0.1:7331/mcp) instead of opening the index",
    )
    .option(
      '--token-env <name>',
      'with --attach: the environment variable holding the bearer token (default KBCTX_TOKEN)',
    )
    .action(async (options: { watch?: boolean; attach?: string }) => {
      if (options.attach !== undefined)
        throw new InvalidArgumentError('--attach takes only --token-env <name> beside it');
      const { serveFromCli } = await import('./serve-entry.ts');
      await serveFromCli(ctx, { stdio: true, watch: options.watch });
    });
  serve
    .command('mcp')
    .description('serve the REST API and the MCP endpoint over HTTP ([server].bind), or MCP over stdio')
    .option('--bind <host:port>', 'address to listen on (overrides [server].bind; port 0 picks a free port)')
    .option('--stdio', 'speak MCP over stdin/stdout (for desktop clients that launch the server)')
    .option('--workers <n>', 'server processes sharing the port (overrides [server].workers)', (v) => {
      if (!/^\d+$/.test(v) || Number(v) < 1) throw new InvalidArgumentError('must be a whole number of at least 1');
      return Number(v);
    })
    .option('--no-watch', 'do not watch filesystem connectors (overrides [server].watch; schedules still run)')
    .action(async (options: { bind?: string; stdio?: boolean; workers?: number; watch?: boolean }) => {
      const { serveFromCli } = await import('./serve-entry.ts');
      await serveFromCli(ctx, options);
    });
}
