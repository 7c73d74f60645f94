// Process entry of the `lore` CLI: real streams in, exit code out.
import { runCli } from './run-cli.ts';

process.exitCode = await runCli(process.argv.slice(2), {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
  interactive: process.stderr.isTTY === true,
  cwd: process.cwd(),
  env: process.env,
});
