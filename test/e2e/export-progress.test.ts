// `kbctx export` progress through the real CLI (issue 11): with a non-terminal stderr a plain line every
// KBCTX_PROGRESS_INTERVAL_MS (5 s by default), a summary line on stderr, and stdout the same JSON byte
// for byte whatever is shown; --quiet and --json keep stderr empty.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, statSync } from 'node:fs';
import { after, before, it } from 'node:test';
import { KBCTX_BIN, Workspace } from '../helpers/workspace.ts';

let ws: Workspace;
let plain: string;
before(async () => {
  ws = new Workspace('kbctx-export-progress-');
  // About 1.4 MB of JSON: some twenty pieces, so the export spans many turns of the event loop.
  const paragraph = 'Foxes and tea and write-ahead logs. '.repeat(60);
  for (let i = 0; i < 300; i++) ws.write(`docs/d${i}.md`, `# Doc ${i}\n\n${paragraph}\n`);
  ws.config('[connectors.filesystem.docs]\nroot = "docs"\n');
  const sync = await ws.kbctx(['sync', 'all']);
  assert.equal(sync.code, 0, sync.stderr);
  const r = await ws.kbctx(['export']);
  assert.equal(r.code, 0, r.stderr);
  plain = r.stdout;
});
after(() => ws.cleanup());

it('a quick export prints no progress line, only the summary on stderr', async () => {
  const r = await ws.kbctx(['export']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /^Exported 300 documents and 300 chunks to stdout \(1\.\d MiB, \d+\.\d\d s\)\n$/);
  const parsed = JSON.parse(r.stdout) as { documents: unknown[]; chunks: unknown[] };
  assert.equal(parsed.documents.length, 300);
  assert.equal(parsed.chunks.length, 300);
});

it(
  'a non-terminal stderr gets plain progress lines when the ' + 'export outlasts the interval; stdout is unchanged',
  async () => {
    const r = await ws.kbctx(['export'], { env: { KBCTX_PROGRESS_INTERVAL_MS: '1' } });
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stderr.trimEnd().split('\n');
    assert.ok(lines.length >= 2, r.stderr);
    for (const line of lines.slice(0, -1))
      assert.match(line, /^export: documents\+chunks \d+\/600 \(\d+%\) {2}[\d.]+\/s {2}ETA (\d+s|\d+m\d\ds|\?)$/);
    assert.match(lines.at(-1) ?? '', /^Exported 300 documents and 300 chunks to stdout \(/);
    assert.ok(!r.stderr.includes('\x1b'), 'no terminal escapes');
    assert.equal(r.stdout, plain);
  },
);

it('`kbctx export > file`: stdout writes complete synchronously, and the progress lines still come', async () => {
  const fd = openSync(ws.path('redirected.json'), 'w');
  const child = spawn(process.execPath, [KBCTX_BIN, 'export'], {
    cwd: ws.dir,
    env: { ...process.env, KBCTX_CONFIG: '', KBCTX_PROGRESS_INTERVAL_MS: '1' },
    stdio: ['ignore', fd, 'pipe'],
  });
  closeSync(fd);
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(code, 0, stderr);
  assert.match(stderr, /^export: documents\+chunks \d+\/600 \(\d+%\) /);
  assert.match(stderr, /\nExported 300 documents and 300 chunks to stdout \(.*\)\n$/);
  assert.equal(readFileSync(ws.path('redirected.json'), 'utf8'), plain);
});

it('--quiet and --json keep stderr empty and stdout unchanged', async () => {
  for (const flag of ['--quiet', '--json']) {
    const r = await ws.kbctx(['export', flag], { env: { KBCTX_PROGRESS_INTERVAL_MS: '1' } });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '', flag);
    assert.equal(r.stdout, plain, flag);
  }
});

it('--output: progress on stderr, the summary with bytes and time on stdout, the same JSON in the file', async () => {
  const r = await ws.kbctx(['export', '--output', 'out.json'], { env: { KBCTX_PROGRESS_INTERVAL_MS: '1' } });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^Wrote 300 documents and 300 chunks to out\.json \(1\.\d MiB, \d+\.\d\d s\)\n$/);
  assert.match(r.stderr, /^export: documents\+chunks \d+\/600 /);
  assert.equal(readFileSync(ws.path('out.json'), 'utf8'), plain);
  const asJson = await ws.kbctx(['export', '--output', 'out2.json', '--json'], {
    env: { KBCTX_PROGRESS_INTERVAL_MS: '1' },
  });
  assert.equal(asJson.stderr, '');
  const summary = JSON.parse(asJson.stdout) as Record<string, unknown>;
  assert.deepEqual(
    { ...summary, duration_ms: 0 },
    {
      output: ws.path('out2.json'),
      documents: 300,
      chunks: 300,
      bytes: statSync(ws.path('out2.json')).size,
      duration_ms: 0,
    },
  );
});
