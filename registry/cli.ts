// Process entry of the `kbctx` command: real streams in, exit code out. Runs the cli plugin's runner
// (plugins/cli/run-cli.ts) with the bundled plugin set, which is imported only when a command opens the index.
// `kbctx serve stdio --attach <url>` is answered before any of that loads (ADR 0218): a light stdio ↔ HTTP bridge.
import { parseAttachArgs, runAttach } from '../plugins/mcp-attach/api.ts';

// A reader that went away (`kbctx export | head`) ends output quietly with exit 0, like other Unix tools.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

const argv = process.argv.slice(2);
const attach = parseAttachArgs(argv, process.env);
if (attach.kind === 'attach') process.exitCode = await runAttach(attach.options, process.env);
else if (attach.kind === 'usage') {
  process.stderr.write(`kbctx: ${attach.message}\n(run \`kbctx serve stdio --help\` for usage)\n`);
  process.exitCode = 2;
} else {
  const [{ setBundledLoader }, { runCli }] = await Promise.all([
    import('../core/app/bundled-set.ts'),
    import('../plugins/cli/run-cli.ts'),
  ]);
  setBundledLoader(() => import('./bundled.ts'));
  process.exitCode = await runCli(argv, {
    out: (text) => void process.stdout.write(text),
    stdout: process.stdout,
    err: (text) => void process.stderr.write(text),
    interactive: process.stderr.isTTY === true,
    columns: process.stdout.isTTY ? process.stdout.columns : undefined,
    cwd: process.cwd(),
    env: process.env,
  });
}
