// The LanceDB crash tests' shared parts: a corpus in which every document changes each round, a real `kbctx sync all`
// killed at a point spread over its run (or caught after its first commit), and the consistency check of a table
// (chunks match bodies, one version per document, no duplicate rows, keyword index exactly the chunks). Used by
// crash-safety-lancedb and crash-s3-restart-lancedb.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { chunkIds } from '../../core/domain/ids.ts';
import { chunkText } from '../../plugins/chunker-default/chunker.ts';
import { openLanceStore } from '../../plugins/store-lancedb/lance-store.ts';
import { KBCTX_BIN, type Workspace } from './workspace.ts';

/** Writes `files` documents of `version` under docs/ (each 120 words, all changed from any other version). */
export function writeCorpus(ws: Workspace, files: number, version: string): void {
  for (let i = 0; i < files; i++) {
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

const startSync = (ws: Workspace, env: NodeJS.ProcessEnv) => {
  const child = spawn(process.execPath, [KBCTX_BIN, 'sync', 'all'], {
    cwd: ws.dir,
    stdio: 'ignore',
    env: { ...process.env, KBCTX_CONFIG: '', ...env },
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { kill: () => child.kill('SIGKILL'), exited };
};

/** Runs `kbctx sync all` to its end: its exit code and how long it took from the spawn (ms). */
export async function timedSync(
  ws: Workspace,
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; ms: number }> {
  const started = performance.now();
  const code = await startSync(ws, env).exited;
  return { code, ms: performance.now() - started };
}

/**
 * Round `round`'s kill point in [0, spanMs): the golden-ratio sequence, so any number of rounds spreads its kills
 * over the whole sync (start-up, lock wait, analysis, inside a commit, between commits, compaction) without clustering.
 */
export const killDelay = (round: number, spanMs: number): number => spanMs * ((round * 0.6180339887) % 1);

/**
 * Starts `kbctx sync all` and SIGKILLs it `delayMs` after the spawn: whether it was still running (killed), and
 * otherwise how long it ran (ms).
 */
export async function syncKilledAfter(
  ws: Workspace,
  delayMs: number,
  env: NodeJS.ProcessEnv = {},
): Promise<{ killed: boolean; ms: number }> {
  const started = performance.now();
  const sync = startSync(ws, env);
  const done = await Promise.race([sync.exited.then(() => true), sleep(delayMs).then(() => false)]);
  if (done) return { killed: false, ms: performance.now() - started };
  return { killed: sync.kill() && (await sync.exited) === null, ms: delayMs };
}

/**
 * Starts `kbctx sync all` in `ws` and resolves once its first commit is seen (`stamp` changes: the generation file,
 * or the table's versions folder in s3rver's store), `delayMs` later; `exited` gives its exit code (null when
 * killed by a signal).
 */
export async function syncPastFirstCommit(
  ws: Workspace,
  stamp: string,
  delayMs: number,
  env: NodeJS.ProcessEnv = {},
): Promise<{ kill(): boolean; exited: Promise<number | null> }> {
  const before = mtime(stamp);
  const sync = startSync(ws, env);
  for (let i = 0; i < 6000 && mtime(stamp) === before; i++) await sleep(5);
  await sleep(delayMs);
  return sync;
}

/** Checks the table at `dir` (a folder or a bucket URL); returns its counts and the versions its documents carry. */
export async function checkConsistent(
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
