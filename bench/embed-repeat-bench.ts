// `npm run bench:embed-repeat`: vectors computed in the repeated-work cases of issue 25, through the
// real CLI and an OpenAI-compatible server that counts what it embeds (test/helpers/hashing-provider.ts,
// 20 ms per request so embedders overlap). BENCH_KBCTX_BIN runs another checkout's bin/kbctx.js (the
// code before the change) on the same scenario. Prints numbers only.
// Each case starts from its own workspace: 2 connectors × 150 documents (+1) indexed with embeddings
// off, then a provider configured (301 chunks pending).
//   1. One more document, `kbctx sync filesystem:a`: vectors computed (ideal: 1).
//   2. `kbctx embed pending` started, and beside it a no-change `kbctx sync all` (ideal: 301).
//   3. Two `kbctx embed pending` at once (ideal: 301).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { startHashingProvider } from '../test/helpers/hashing-provider.ts';
import { KBCTX_BIN, Workspace } from '../test/helpers/workspace.ts';

const bin = path.resolve(process.env['BENCH_KBCTX_BIN'] ?? KBCTX_BIN);
const PER = 150;
const provider = await startHashingProvider(16, { delayMs: 20 });
const PENDING = 2 * PER + 1;

/** A fresh workspace: 2 × PER documents indexed with embeddings off, one more written, provider m1 configured. */
async function backlog(): Promise<{
  ws: Workspace;
  kbctx: (args: string[]) => Promise<number>;
  config: (model: string) => void;
}> {
  const ws = new Workspace('kbctx-embed-repeat-bench-');
  const kbctx = (args: string[]): Promise<number> =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [bin, ...args], {
        cwd: ws.dir,
        env: { ...process.env, KBCTX_CONFIG: '' },
        stdio: 'ignore',
      });
      child.on('error', reject);
      child.on('close', (code) => resolve(code ?? -1));
    });
  const config = (model: string | null): void =>
    ws.config(
      (model === null
        ? ''
        : `[embedding]\nprovider = "openai"\nbase_url = "${provider.baseUrl}"\nmodel = "${model}"\ndims = 16\n` +
          `batch_size = 4\nconcurrency = 1\n`) +
        '[connectors.filesystem.a]\nroot = "a"\n[connectors.filesystem.b]\nroot = "b"\n',
    );
  for (let i = 0; i < PER; i++) {
    ws.write(`a/a${i}.md`, `# A ${i}\n\nHerons and kingfishers, note ${i}.\n`);
    ws.write(`b/b${i}.md`, `# B ${i}\n\nWrite-ahead logs and checkpoints, note ${i}.\n`);
  }
  config(null);
  await kbctx(['sync', 'all']);
  ws.write('a/new.md', '# New\n\nA new note about herons.\n');
  await kbctx(['sync', 'all']);
  config('m1');
  return { ws, kbctx, config };
}

const computedBy = async (run: () => Promise<unknown>): Promise<number> => {
  const before = provider.computed();
  await run();
  return provider.computed() - before;
};

console.log(bin);
try {
  const one = await backlog();
  one.ws.write('a/newer.md', '# Newer\n\nAnother note about herons.\n');
  console.log(
    `sync of one connector writing 1 document (${PENDING} chunks pending): ` +
      `${await computedBy(() => one.kbctx(['sync', 'filesystem:a']))} vectors computed (ideal 1)`,
  );
  one.ws.cleanup();

  const two = await backlog();
  const beside = await computedBy(async () => {
    const embedding = two.kbctx(['embed', 'pending']);
    const start = provider.requests();
    while (provider.requests() === start) await new Promise((resolve) => setTimeout(resolve, 5));
    await two.kbctx(['sync', 'all']);
    await embedding;
  });
  console.log(
    `no-change sync beside embed pending: ${beside} vectors computed for ${PENDING} chunks (ideal ${PENDING})`,
  );
  two.ws.cleanup();

  const three = await backlog();
  const both = await computedBy(() =>
    Promise.all([three.kbctx(['embed', 'pending']), three.kbctx(['embed', 'pending'])]),
  );
  console.log(`two embed pending at once: ${both} vectors computed for ${PENDING} chunks (ideal ${PENDING})`);
  three.ws.cleanup();
} finally {
  await provider.close();
}
