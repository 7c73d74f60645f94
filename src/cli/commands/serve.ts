// `lore serve mcp [--bind host:port] [--stdio]`: the HTTP server (REST + MCP) or MCP over stdio.
import type { Command } from 'commander';
import type { CliContext } from '../context.ts';

export function registerServe(program: Command, ctx: CliContext): void {
  const serve = program.command('serve').description('run a server');
  serve
    .command('mcp')
    .description('serve the REST API and the MCP endpoint over HTTP ([server].bind), or MCP over stdio')
    .option('--bind <host:port>', 'address to listen on (overrides [server].bind; port 0 picks a free port)')
    .option('--stdio', 'speak MCP over stdin/stdout (for desktop clients that launch the server)')
    .action(async (options: { bind?: string; stdio?: boolean }) => {
      const { serveFromCli } = await import('./serve-entry.ts');
      await serveFromCli(ctx, options);
    });
}
