// `node bench/lance-small-syncs.ts [syncs]`: the LanceDB store's size and file count after many
// single-document syncs (ADR 0125). Each sync does what `kbctx sync` does for one changed file:
// upsert it in bulk mode, record the checkpoint, compact. Run once with store-lancedb's compaction
// policy and once with compaction left out, on a base index of BASE documents; prints files, MB,
// table versions, the median sync time and keyword p50 at the end.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { analyzeQuery } from '../core/search/analyze-query.ts';
import { chunkIds, documentId, sha256Hex } from '../core/domain/ids.ts';
import type { StoredDocument } from '../core/store/store.ts';
import { openLanceStore } from '../plugins/store-lancedb/lance-store.ts';
import { fmtMs, median, percentile } from './stats.ts';

const SYNCS = Number(process.argv[2] ?? 1000);
const BASE = 1000;

function doc(
  i: number,
  version: number,
): {
  doc: StoredDocument;
  chunks: { id: string; documentId: string; chunkIndex: number; text: string; contentHash: string }[];
} {
  const text =
    `Note ${i} version ${version}: ` +
    `${Array.from({ length: 80 }, (_, w) => `term${(i * 13 + w * 7 + version) % 2003}`).join(' ')}`;
  const id = documentId('filesystem:notes', `n${i}.md`);
  const d: StoredDocument = {
    id,
    source: 'filesystem:notes',
    connector: 'filesystem:notes',
    sourceId: `n${i}.md`,
    sourceUrl: null,
    title: `Note ${i}`,
    body: text,
    contentType: 'text/markdown',
    metadata: {},
    updatedAt: new Date().toISOString(),
    contentHash: sha256Hex(text),
  };
  return {
    doc: d,
    chunks: chunkIds(id, [text]).map((cid) => ({
      id: cid,
      documentId: id,
      chunkIndex: 0,
      text,
      contentHash: sha256Hex(text),
    })),
  };
}

function folder(dir: string): { files: number; mb: number; versions: number } {
  let files = 0;
  let bytes = 0;
  let versions = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    files++;
    bytes += statSync(path.join(e.parentPath, e.name)).size;
    if (e.parentPath.endsWith('_versions')) versions++;
  }
  return { files, mb: bytes / 1e6, versions };
}

for (const policy of [true, false]) {
  const root = mkdtempSync(path.join(tmpdir(), 'kbctx-lance-syncs-'));
  const dir = path.join(root, 'index.lance');
  const store = await openLanceStore(dir);
  if (!policy) store.compact = async () => undefined;
  await store.beginBulk();
  for (let i = 0; i < BASE; i++) {
    const d = doc(i, 0);
    await store.upsertDocument(d.doc, d.chunks, null);
  }
  await store.endBulk();
  await store.compact();
  const times: number[] = [];
  for (let s = 1; s <= SYNCS; s++) {
    const started = performance.now();
    const d = doc(s % BASE, s);
    await store.beginBulk();
    await store.upsertDocument(d.doc, d.chunks, `fp${s}`);
    await store.endBulk();
    await store.setSourceState('filesystem:notes', { checkpoint: null, lastSyncAt: new Date().toISOString() });
    await store.compact();
    times.push(performance.now() - started);
  }
  const searches: number[] = [];
  for (let q = 0; q < 200; q++) {
    const started = performance.now();
    await store.keywordSearch({ terms: analyzeQuery(`term${q} term${q * 3 + 1}`), limit: 10, candidateK: 10 });
    searches.push(performance.now() - started);
  }
  const after = folder(dir);
  await store.close();
  const reopened = await openLanceStore(dir);
  const counts = await reopened.counts();
  await reopened.close();
  console.log(
    `${policy ? 'compaction policy' : 'no compaction    '}: ${SYNCS} single-document syncs on ${BASE} documents ` +
      `→ ${after.files} files, ${after.mb.toFixed(1)} MB, ` +
      `${after.versions} version manifests; sync p50 ${fmtMs(median(times))} ms p95 ` +
      `${fmtMs(percentile(times, 95))} ms; keyword p50 ${fmtMs(median(searches))} ms; ` +
      `${counts.documents} documents after reopening`,
  );
  rmSync(root, { recursive: true, force: true });
}
