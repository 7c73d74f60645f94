// Process entry of the `kbctx` CLI: real streams in, exit code out.
import { runCli } from './run-cli.ts';

// A reader that went away (`kbctx export | head`) ends output quietly with exit 0, like other Unix tools.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

process.exitCode = await runCli(process.argv.slice(2), {
  out: (text) => void process.stdout.write(text),
  stdout: process.stdout,
  err: (text) => void process.stderr.write(text),
  interactive: process.stderr.isTTY === true,
  columns: process.stdout.isTTY ? process.stdout.columns : undefined,
  cwd: process.cwd(),
  env: process.env,
});
