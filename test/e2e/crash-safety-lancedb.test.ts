// Kill -9 a real `kbctx sync` writing into the LanceDB store (store-lancedb), round after round while
// every document changes, then check the table: every document's chunks match its body, each document
// wholly of one version, no duplicate rows, the keyword index holding exactly the chunks; a final
// resync converges to what a clean index holds. KBCTX_CRASH_ROUNDS sets the rounds of both parts (20 for the
// figures in ADR 0125 and 0236; 3 in the suite). The same runs with the index in a bucket on s3rver (ADR 0231;
// fewer files: every commit goes through HTTP), where a killed sync's locks are leases the next one waits out.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { chunkIds } from '../../core/domain/ids.ts';
import { chunkText } from '../../plugins/chunker-default/chunker.ts';
import { openLanceStore } from '../../plugins/store-lancedb/lance-store.ts';
import { startS3Server, S3_TEST_ENV } from '../helpers/s3-server.ts';
import { KBCTX_BIN, Workspace } from '../helpers/workspace.ts';

let FILES = 1500;
const ROUNDS = Number(process.env['KBCTX_CRASH_ROUNDS'] ?? 3);
const ws = new Workspace('kbctx-crash-lance-');
after(() => ws.cleanup());

function writeCorpus(version: string): void {
  for (let i = 0; i < FILES; i++) {
    const words = Array.from({ length: 120 }, (_, w) => `word${(i * 7 + w) % 997}`).join(' ');
    ws.write(`docs/doc-${i}.md`, `# Document ${i} ${version}\n\n${words}\n\nVersion ${version} of file ${i}.`);
  }
}

const mtime = (file: string): number => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
};

/**
 * Starts `kbctx sync all`, SIGKILLs it `delayMs` after its first commit (`stamp` changes: the generation file, or
 * the table's versions folder in s3rver's store). Returns true if it was killed.
 */
async function killMidSync(stamp: string, delayMs: number, env: NodeJS.ProcessEnv = {}): Promise<boolean> {
  const before = mtime(stamp);
  const child = spawn(process.execPath, [KBCTX_BIN, 'sync', 'all'], {
    cwd: ws.dir,
    stdio: 'ignore',
    env: { ...process.env, KBCTX_CONFIG: '', ...env },
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  for (let i = 0; i < 6000 && mtime(stamp) === before; i++) await sleep(5);
  await sleep(delayMs);
  const killed = child.kill('SIGKILL');
  return killed && (await exited) === null;
}

async function checkConsistent(
  dir: string,
  storageOptions?: Record<string, string>,
): Promise<{ documents: number; chunks: number; versions: Set<string> }> {
  const store = await openLanceStore(dir, 'create', { storageOptions });
  try {
    const report = await store.checkIntegrity();
    assert.deepEqual(report.sqlite, [], 'no duplicate rows, no chunk without its document');
    assert.equal(report.fts, null);
    assert.equal(report.ftsRows, report.chunks);
    assert.equal(report.documentsWithoutChunks, 0);
    const { documents, chunks } = await store.exportAll();
    const byDoc = new Map<string, string[]>();
    for (const c of chunks) byDoc.set(c.documentId, [...(byDoc.get(c.documentId) ?? []), c.id]);
    const versions = new Set<string>();
    for (const d of documents) {
      assert.deepEqual(
        byDoc.get(d.id) ?? [],
        chunkIds(d.id, chunkText(d.body, { maxTokens: 700, overlapTokens: 80 })),
        `chunks of ${d.title} match its body`,
      );
      const version = d.title.split(' ').at(-1) ?? '';
      assert.ok(d.body.includes(`Version ${version} of file`), `${d.title}: title and body of one version`);
      versions.add(version);
    }
    return { documents: documents.length, chunks: chunks.length, versions };
  } finally {
    await store.close();
  }
}

describe('crash safety (LanceDB)', () => {
  it(`${ROUNDS} kills during syncs that change every document leave a consistent table that a resync completes`, async () => {
    ws.config('[db]\nengine = "lancedb"\npath = "index.lance"\n[connectors.filesystem.docs]\nroot = "docs"\n');
    const dir = ws.path('index.lance');
    let killed = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      writeCorpus(`v${round}`);
      if (await killMidSync(`${dir}/kbctx.generation`, (round * 23) % 150)) killed++;
      const state = await checkConsistent(dir);
      assert.ok(state.documents <= FILES);
    }
    assert.ok(killed >= Math.ceil(ROUNDS / 2), `${killed} of ${ROUNDS} syncs killed mid-write`);
    const resync = await ws.kbctx(['sync', 'all']);
    assert.equal(resync.code, 0, resync.stderr);
    const final = await checkConsistent(dir);
    assert.equal(final.documents, FILES);
    assert.deepEqual([...final.versions], [`v${ROUNDS}`]);

    ws.write(
      'clean.toml',
      '[db]\nengine = "lancedb"\npath = "clean.lance"\n[connectors.filesystem.docs]\nroot = "docs"\n',
    );
    const clean = await ws.kbctx(['-c', 'clean.toml', 'sync', 'all']);
    assert.equal(clean.code, 0, clean.stderr);
    assert.equal((await checkConsistent(ws.path('clean.lance'))).chunks, final.chunks);
    console.log(
      `LanceDB crash test: ${killed} of ${ROUNDS} syncs killed mid-write, every state consistent; resync complete (${final.documents} documents, ${final.chunks} chunks)`,
    );
  });

  it('the same in a bucket on s3rver: kills mid-sync leave a consistent table; the next sync takes the locks over', async () => {
    FILES = 300;
    const s3 = await startS3Server(['kb']);
    try {
      const storage = { endpoint: s3.endpoint, allow_http: 'true', ...lowerKeys(S3_TEST_ENV) };
      ws.remove('docs');
      ws.config(
        `[db]\npath = "s3://kb/crash"\nlock_lease = "2s"\n[db.storage_options]\nendpoint = "${s3.endpoint}"\nallow_http = "true"\n` +
          '[connectors.filesystem.docs]\nroot = "docs"\n',
      );
      const stamp = path.join(s3.dir, 'kb', 'crash', 'kb.lance', '_versions');
      let killed = 0;
      for (let round = 1; round <= ROUNDS; round++) {
        writeCorpus(`s${round}`);
        if (await killMidSync(stamp, (round * 37) % 150, S3_TEST_ENV)) killed++;
        assert.ok((await checkConsistent('s3://kb/crash', storage)).documents <= FILES);
      }
      assert.ok(killed >= Math.ceil(ROUNDS / 2), `${killed} of ${ROUNDS} syncs killed mid-write`);
      const resync = await ws.kbctx(['sync', 'all'], { env: S3_TEST_ENV });
      assert.equal(resync.code, 0, resync.stderr);
      const final = await checkConsistent('s3://kb/crash', storage);
      assert.deepEqual([final.documents, [...final.versions]], [FILES, [`s${ROUNDS}`]]);
      console.log(
        `LanceDB in s3rver crash test: ${killed} of ${ROUNDS} syncs killed mid-write, every state consistent; resync complete (${final.documents} documents, ${final.chunks} chunks)`,
      );
    } finally {
      await s3.stop();
    }
  });
});

/** The AWS_* keys as storage options (what Lance reads from the environment in a spawned kbctx). */
function lowerKeys(env: Record<string, string>): Record<string, string> {
  return {
    aws_access_key_id: env['AWS_ACCESS_KEY_ID'] ?? '',
    aws_secret_access_key: env['AWS_SECRET_ACCESS_KEY'] ?? '',
    region: env['AWS_REGION'] ?? 'us-east-1',
  };
}
