// Process entry of the `kbctx` command: real streams in, exit code out. Runs the cli plugin's runner
// (plugins/cli/run-cli.ts) with the bundled plugin set, which is imported only when a command opens the index.
// `kbctx serve stdio --attach <url>` is answered before any of that loads (ADR 0218): a light stdio ↔ HTTP bridge.

// A reader that went away (`kbctx export | head`) ends output quietly with exit 0, like other Unix tools.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

const argv = process.argv.slice(2);
// Only an argument list naming --attach loads even the parser: other commands keep their module count.
const attach = argv.some((a) => a === '--attach' || a.startsWith('--attach='))
  ? await import('../plugins/mcp-attach/api.ts').then(({ parseAttachArgs, runAttach }) => ({
      request: parseAttachArgs(argv, process.env),
      runAttach,
    }))
  : undefined;
if (attach?.request.kind === 'attach') process.exitCode = await attach.runAttach(attach.request.options, process.env);
else if (attach?.request.kind === 'usage') {
  process.stderr.write(`kbctx: ${attach.request.message}\n(run \`kbctx serve stdio --help\` for usage)\n`);
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
