// `kbctx token hash [--env VAR]`: the SHA-256 of a token's secret for `[server.tokens.<name>] token_sha256` (ADR
// 0223), read from stdin (piped, never prompted) or from an environment variable, so the secret never appears in
// the command line, the shell history or the config.
import type { Command } from 'commander';
import { badRequest, type CliProgram } from '../../core/api/plugin.ts';
import type { CliContext } from '../cli/api.ts';
import { sha256 } from './token-set.ts';

export function registerToken(cli: CliProgram, ctx: CliContext): void {
  const program = cli as unknown as Command; // commander's Command at run time
  const token = program.command('token').description('the server’s Bearer tokens ([server.tokens.<name>])');
  token
    .command('hash')
    .description('print the SHA-256 of a token’s secret (from stdin, or --env VAR) and the token_sha256 line')
    .option('--env <VAR>', 'read the secret from this environment variable instead of stdin')
    .action(async (opts: { env?: string }) => {
      const secret = opts.env === undefined ? await readStdin() : ctx.io.env[opts.env];
      if (!secret) {
        throw badRequest(
          opts.env === undefined
            ? 'no secret on stdin: pipe it in (printf %s "$KBCTX_TOKEN" | kbctx token hash) or use --env VAR'
            : `the environment variable ${opts.env} is not set or empty`,
        );
      }
      const hex = sha256(secret).toString('hex');
      if (ctx.json) ctx.printJson({ sha256: hex, toml: `token_sha256 = "${hex}"` });
      else ctx.io.out(`${hex}\n# under [server.tokens.<name>]:\ntoken_sha256 = "${hex}"\n`);
    });
}

/** All of stdin with one trailing line break removed (`echo secret |`); '' from a terminal (nothing is prompted). */
async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}
