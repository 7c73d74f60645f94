// Process entry of the `kbctx` command: real streams in, exit code out. Runs the cli plugin's runner
// (plugins/cli/run-cli.ts) with the bundled plugin set, which is imported only when a command opens the index.
import { setBundledLoader } from '../core/app/bundled-set.ts';
import { runCli } from '../plugins/cli/run-cli.ts';

setBundledLoader(() => import('./bundled.ts'));

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
