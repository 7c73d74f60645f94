// Kill -9 a real `kbctx sync` in the middle of writing, then check the index is consistent (every
// document's chunks match its body, FTS rows match chunks) and that a resync converges to exactly
// what a clean index holds.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { chunkIds } from '../../core/domain/ids.ts';
import { chunkText } from '../../plugins/chunker-default/chunker.ts';
import { KBCTX_BIN, Workspace } from '../helpers/workspace.ts';

const FILES = 6000;
const ws = new Workspace('kbctx-crash-');
after(() => ws.cleanup());

function writeCorpus(version: string): void {
  for (let i = 0; i < FILES; i++) {
    const words = Array.from({ length: 120 }, (_, w) => `word${(i * 7 + w) % 997}`).join(' ');
    ws.write(`docs/doc-${i}.md`, `# Document ${i} ${version}\n\n${words}\n\nVersion ${version} of file ${i}.`);
  }
}

/** Starts `kbctx sync all` and SIGKILLs it shortly after it begins writing. Returns true if it was killed. */
async function killMidSync(db: string): Promise<boolean> {
  const child = spawn(process.execPath, [KBCTX_BIN, 'sync', 'all'], {
    cwd: ws.dir,
    stdio: 'ignore',
    env: { ...process.env, KBCTX_CONFIG: '' },
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const baseline = existsSync(`${db}-wal`) ? statSync(`${db}-wal`).size : 0;
  for (let i = 0; i < 2000; i++) {
    if (existsSync(`${db}-wal`) && statSync(`${db}-wal`).size > baseline + 64 * 1024) break;
    await sleep(5);
  }
  await sleep(150);
  const killed = child.kill('SIGKILL');
  const code = await exited;
  return killed && code === null;
}

function checkConsistent(file: string, overlap: number): { documents: number; chunks: number; versions: Set<string> } {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    assert.equal((db.prepare('PRAGMA integrity_check').get() as { integrity_check: string }).integrity_check, 'ok');
    const docs = db.prepare('SELECT rowid, id, title, body FROM documents').all() as {
      rowid: number;
      id: string;
      title: string;
      body: string;
    }[];
    const chunkRows = db
      .prepare('SELECT document_rowid AS doc, id, chunk_index FROM chunks ORDER BY document_rowid, chunk_index')
      .all() as {
      doc: number;
      id: string;
      chunk_index: number;
    }[];
    const byDoc = new Map<number, string[]>();
    for (const c of chunkRows) byDoc.set(c.doc, [...(byDoc.get(c.doc) ?? []), c.id]);
    const versions = new Set<string>();
    for (const d of docs) {
      const expected = chunkIds(d.id, chunkText(d.body, { maxTokens: 700, overlapTokens: overlap }));
      assert.deepEqual(byDoc.get(d.rowid) ?? [], expected, `chunks of ${d.title} do not match its body`);
      versions.add(d.title.split(' ').at(-1) ?? '');
    }
    const ftsRows = (db.prepare('SELECT count(*) AS n FROM chunks_fts').get() as { n: number }).n;
    assert.equal(Number(ftsRows), chunkRows.length, 'every chunk has exactly one keyword-index row');
    return { documents: docs.length, chunks: chunkRows.length, versions };
  } finally {
    db.close();
  }
}

describe('crash safety', () => {
  it('a kill during the first sync leaves a consistent index that a resync completes', async () => {
    ws.config('[db]\npath = "index.sqlite"\n[connectors.filesystem.docs]\nroot = "docs"\n');
    writeCorpus('v1');
    const db = ws.path('index.sqlite');
    assert.ok(await killMidSync(db), 'the sync was still running when killed');
    const partial = checkConsistent(db, 80);
    assert.ok(partial.documents < FILES, `killed mid-sync (${partial.documents} of ${FILES} documents written)`);

    const resync = await ws.kbctx(['sync', 'all']);
    assert.equal(resync.code, 0, resync.stderr);
    const complete = checkConsistent(db, 80);
    assert.equal(complete.documents, FILES);
    assert.match(resync.stdout, new RegExp(`fetched ${FILES}, upserted ${FILES - partial.documents}, `));
  });

  it('a kill while documents change leaves each document wholly old or wholly new', async () => {
    writeCorpus('v2');
    const db = ws.path('index.sqlite');
    assert.ok(await killMidSync(db));
    const mixed = checkConsistent(db, 80);
    assert.equal(mixed.documents, FILES);
    const again = await ws.kbctx(['sync', 'all']);
    assert.equal(again.code, 0, again.stderr);
    const final = checkConsistent(db, 80);
    assert.deepEqual([...final.versions], ['v2']);

    ws.write('clean.toml', '[db]\npath = "clean.sqlite"\n[connectors.filesystem.docs]\nroot = "docs"\n');
    const clean = await ws.kbctx(['-c', 'clean.toml', 'sync', 'all']);
    assert.equal(clean.code, 0, clean.stderr);
    assert.deepEqual(checkConsistent(ws.path('clean.sqlite'), 80).chunks, final.chunks);
  });
});
