// `npm run conformance`: the official MCP conformance suite against a real `kbctx serve mcp` on 127.0.0.1:0 with the
// suite's fixtures (test/fixtures/conformance-plugin) — the active suite for each 2025 revision and the 2026-07-28
// requirement set, each with a baseline of individual fixture-only checks. Output goes to a log file (default
// .ci/logs/conformance.log); exit 1 on any regression.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BASE_CONFIG, DOCS } from '../helpers/server.ts';
import { KBCTX_BIN, REPO_ROOT, Workspace } from '../helpers/workspace.ts';

const LOG = path.resolve(process.env['CONFORMANCE_LOG'] ?? path.join(REPO_ROOT, '.ci/logs/conformance.log'));
const SUITE = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const here = path.join(REPO_ROOT, 'test/conformance');

// One run per protocol revision kbctx serves, each with its own baseline of individual checks.
const runs = [
  ...['2025-03-26', '2025-06-18', '2025-11-25'].map((rev) => ({
    name: `active suite, revision ${rev}`,
    args: ['--spec-version', rev, '--expected-failures', path.join(here, `baseline-${rev}.yml`)],
  })),
  {
    name: 'requirements 2026-07-28',
    args: ['--requirements', '2026-07-28', '--expected-failures', path.join(here, 'baseline-2026-07-28.yml')],
  },
];

function run(args: string[], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

const ws = new Workspace('kbctx-conformance-');
for (const [file, text] of Object.entries(DOCS)) ws.write(file, text);
// The suite's fixture tools, prompts and resources come from a test-only plugin (never bundled).
const FIXTURES = path.join(REPO_ROOT, 'test/fixtures/conformance-plugin/index.ts');
ws.config(`plugins = ["bundled", ${JSON.stringify(FIXTURES)}]\n${BASE_CONFIG}`);
const sync = spawn(process.execPath, [KBCTX_BIN, 'sync', 'all'], { cwd: ws.dir, stdio: 'ignore' });
await new Promise((resolve) => sync.on('close', resolve));
const kbctx = spawn(process.execPath, [KBCTX_BIN, 'serve', 'mcp', '--bind', '127.0.0.1:0'], {
  cwd: ws.dir,
  stdio: ['ignore', 'pipe', 'pipe'],
});
let serverLog = '';
kbctx.stderr.setEncoding('utf8').on('data', (d: string) => (serverLog += d));
const url = await new Promise<string>((resolve, reject) => {
  let out = '';
  kbctx.stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    const m = /MCP endpoint: (\S+)/.exec(out);
    if (m) resolve(m[1]!);
  });
  kbctx.on('exit', (code) => reject(new Error(`kbctx serve mcp exited with ${code}`)));
});

let log = '';
let failed = false;
for (const r of runs) {
  const { code, output } = await run([SUITE, 'server', '--url', url, ...r.args], ws.dir);
  log += `### ${r.name}: exit ${code}\n${output}\n`;
  const summary = output.slice(output.lastIndexOf('=== SUMMARY ==='));
  console.log(
    `conformance, ${r.name}: ${code === 0 ? 'ok' : 'FAILED'}\n${summary
      .split('\n')
      .filter((l) => /^Total|regression|stale|Unexpected|Expected/i.test(l))
      .join('\n')}`,
  );
  failed ||= code !== 0;
}
kbctx.kill('SIGTERM');
ws.cleanup();
mkdirSync(path.dirname(LOG), { recursive: true });
writeFileSync(LOG, `${log}### kbctx serve mcp stderr\n${serverLog}`);
console.log(`full output: ${LOG}`);
process.exitCode = failed ? 1 : 0;
