// `npm run bench:export`: peak RSS of `kbctx export` on a large index (default ≥ 50,000 chunks). Builds
// the corpus in a temp workspace (small chunks so the count is high), syncs it with the real CLI, then
// runs `kbctx export --output` and `kbctx export` into a pipe under /usr/bin/time. Prints numbers only.
// Env: BENCH_EXPORT_DOCS (default 2500 documents of 10 paragraphs, ~52,000 chunks), BENCH_KEEP=1 keeps the workspace.
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { KBCTX_BIN, runKbctx, Workspace } from '../test/helpers/workspace.ts';

const DOCS = Number(process.env['BENCH_EXPORT_DOCS'] ?? 2500);
const WORDS = [
  'fox',
  'tea',
  'ledger',
  'harbour',
  'quartz',
  'meadow',
  'signal',
  'lantern',
  'copper',
  'orbit',
  'willow',
  'ember',
];

const ws = new Workspace('kbctx-bench-export-');
for (let d = 0; d < DOCS; d++) {
  const paragraphs = Array.from(
    { length: 10 },
    (_, p) => Array.from({ length: 28 }, (_, w) => WORDS[(d * 7 + p * 3 + w) % WORDS.length]).join(' ') + '.',
  );
  ws.write(`docs/${Math.floor(d / 500)}/doc-${d}.md`, `# Document ${d}\n\n${paragraphs.join('\n\n')}\n`);
}
ws.config('[connectors.filesystem.bulk]\nroot = "docs"\n[chunking]\nmax_tokens = 32\noverlap_tokens = 0\n');
const sync = await runKbctx(['sync', 'all'], { cwd: ws.dir });
if (sync.code !== 0) throw new Error(sync.stderr);

/** Runs the CLI under GNU time; resolves with its peak RSS in MB (and throws on failure). */
function peakRssMb(args: string[], drainStdout: boolean): Promise<{ mb: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', ['-f', 'PEAK_KB=%M', process.execPath, KBCTX_BIN, ...args], {
      cwd: ws.dir,
      env: { ...process.env, KBCTX_CONFIG: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let bytes = 0;
    child.stdout.on('data', (d: Buffer) => (drainStdout ? (bytes += d.length) : (stdout += d.toString('utf8'))));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('close', (code) => {
      const kb = /PEAK_KB=(\d+)/.exec(stderr);
      if (code !== 0 || !kb) return reject(new Error(`export failed (${code}): ${stderr}`));
      resolve({ mb: Number(kb[1]) / 1024, stdout: drainStdout ? `${bytes}` : stdout });
    });
  });
}

const toFile = await peakRssMb(['export', '--output', 'export.json', '--json'], false);
const counts = JSON.parse(toFile.stdout) as { documents: number; chunks: number };
const size = statSync(ws.path('export.json')).size;
const toPipe = await peakRssMb(['export'], true);
console.log(
  `index: ${counts.documents} documents, ${counts.chunks} chunks; export file ${(size / 1048576).toFixed(1)} MB`,
);
console.log(`kbctx export --output: peak RSS ${toFile.mb.toFixed(1)} MB`);
console.log(
  `kbctx export | reader: peak RSS ${toPipe.mb.toFixed(1)} MB ` +
    `(${(Number(toPipe.stdout) / 1048576).toFixed(1)} MB streamed)`,
);
if (process.env['BENCH_KEEP']) console.log(`workspace kept: ${ws.dir}`);
else ws.cleanup();
