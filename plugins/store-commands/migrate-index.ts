// `kbctx migrate`: copies one index into another store (SQLite ⇄ PostgreSQL, or a new SQLite file),
// through the Store interface only, so any pair of implementations works.
//
// 1. Refuse a target that holds anything (documents or checkpoints) unless `force`; with `force`,
//    report what it held, clear its embeddings and, after the copy, delete its documents the source lacks.
// 2. Documents with their chunks and sync fingerprints (documentStates per connector), in bulk mode,
//    so a resync after moving touches nothing.
// 3. Checkpoints (sourceStates) and last sync runs; with `force`, the target's other connectors are reset.
// 4. Embeddings by chunk id, in batches (iterateEmbeddings → importEmbeddings): no re-embedding.
// 5. Tidy the keyword index, bring the approximate vector indexes in step, and verify: counts,
//    checkpoints and embedding spaces must be equal on both sides.
import {
  KbctxError,
  type ConnectorState,
  type EmbeddingSpaceCount,
  type Store,
  type StoreCounts,
  type StoredEmbedding,
} from '../../core/api/plugin.ts';

const EMBEDDING_BATCH = 500;
const WRITE_CONCURRENCY = 16;

export type MigratePhase = 'documents' | 'embeddings';

export interface MigrateProgress {
  phase: MigratePhase;
  done: number;
  total: number;
}

export interface MigrateOptions {
  /** Overwrite a target that already holds an index (it is made equal to the source). */
  force?: boolean;
  onProgress?: (p: MigrateProgress) => void;
}

export interface MigrateReport {
  /** What the target held before (all zero for a new one). */
  replaced: StoreCounts & { checkpoints: number };
  documents: number;
  chunks: number;
  embeddings: number;
  checkpoints: number;
  /** Target documents the source does not have, deleted (with `force`). */
  removed: number;
  source: StoreCounts;
  target: StoreCounts;
  /** Differences found by the final check; empty when the target equals the source. */
  mismatches: string[];
  durationMs: number;
}

export async function migrateIndex(from: Store, to: Store, options: MigrateOptions = {}): Promise<MigrateReport> {
  const started = performance.now();
  const progress = options.onProgress ?? (() => undefined);
  const replaced = { ...(await to.counts()), checkpoints: (await to.sourceStates()).length };
  if (!options.force && (replaced.documents > 0 || replaced.checkpoints > 0)) {
    throw new KbctxError(
      'conflict',
      `the target ${to.path} already holds an index (${describe(replaced)}); ` +
        `pass --force to replace it with a copy of ${from.path}`,
    );
  }
  const source = await from.counts();
  const copied = { documents: 0, chunks: 0, embeddings: 0, checkpoints: 0, removed: 0 };
  const before = replaced.documents > 0 ? await documentIds(to) : [];
  await to.beginBulk();
  try {
    if (replaced.embedded > 0) await to.clearEmbeddings();
    const seen = await copyDocuments(from, to, source.documents, progress, copied);
    const others = before.filter((id) => !seen.has(id));
    if (others.length > 0) copied.removed = await to.deleteDocuments(others);
    copied.checkpoints = await copyCheckpoints(from, to, replaced.checkpoints > 0);
    copied.embeddings = await copyEmbeddings(from, to, source.embedded, progress);
  } finally {
    await to.endBulk();
  }
  await to.compact();
  for (const space of await to.embeddingSpaces()) await to.refreshVectorIndex(space);
  const target = await to.counts();
  const mismatches = await compare(from, to, source, target);
  return { replaced, ...copied, source, target, mismatches, durationMs: performance.now() - started };
}

async function copyDocuments(
  from: Store,
  to: Store,
  total: number,
  progress: (p: MigrateProgress) => void,
  copied: { documents: number; chunks: number },
): Promise<Set<string>> {
  const fingerprints = new Map<string, Map<string, string | null>>();
  const fingerprintOf = async (connector: string, id: string): Promise<string | null> => {
    let states = fingerprints.get(connector);
    if (!states) {
      states = new Map([...(await from.documentStates(connector))].map(([docId, s]) => [docId, s.fingerprint]));
      fingerprints.set(connector, states);
    }
    return states.get(id) ?? null;
  };
  const seen = new Set<string>();
  progress({ phase: 'documents', done: 0, total });
  // Up to WRITE_CONCURRENCY writes in flight, as sync does: a network store (PostgreSQL) batches the
  // writes queued while one is under way (ADR 0111), and each write stays atomic on its own.
  const inFlight = new Set<Promise<void>>();
  let failed: { error: unknown } | null = null;
  for await (const doc of from.iterateDocuments()) {
    if (failed) break;
    const chunks = await from.getChunks(doc.id);
    const write: Promise<void> = to
      .upsertDocument(doc, chunks, await fingerprintOf(doc.connector, doc.id))
      .then(
        () => {
          seen.add(doc.id);
          copied.documents++;
          copied.chunks += chunks.length;
          progress({ phase: 'documents', done: copied.documents, total: Math.max(total, copied.documents) });
        },
        (error: unknown) => {
          failed ??= { error };
        },
      )
      .finally(() => inFlight.delete(write));
    inFlight.add(write);
    if (inFlight.size >= WRITE_CONCURRENCY) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  if (failed) throw (failed as { error: unknown }).error;
  return seen;
}

async function documentIds(store: Store): Promise<string[]> {
  const ids: string[] = [];
  for (let after = 0; ; ) {
    const page = await store.listDocuments(after, 1000);
    ids.push(...page.documents.map((d) => d.id));
    if (page.last === null) return ids;
    after = page.last;
  }
}

async function copyCheckpoints(from: Store, to: Store, resetOthers: boolean): Promise<number> {
  const states = await from.sourceStates();
  for (const s of states) await to.setSourceState(s.connector, { checkpoint: s.checkpoint, lastSyncAt: s.lastSyncAt });
  // Each connector's last run goes along when both stores record runs (`kbctx sources` reads the same after the move).
  if (to.recordSyncRun)
    for (const { connector, ...run } of (await from.syncRuns?.()) ?? []) await to.recordSyncRun(connector, run);
  if (resetOthers) {
    const copied = new Set(states.map((s) => s.connector));
    for (const s of await to.sourceStates()) {
      if (!copied.has(s.connector)) await to.setSourceState(s.connector, { checkpoint: null, lastSyncAt: null });
    }
  }
  return states.length;
}

async function copyEmbeddings(
  from: Store,
  to: Store,
  total: number,
  progress: (p: MigrateProgress) => void,
): Promise<number> {
  let batch: StoredEmbedding[] = [];
  let done = 0;
  let written = 0;
  const flush = async (): Promise<void> => {
    written += await to.importEmbeddings(batch);
    done += batch.length;
    batch = [];
    progress({ phase: 'embeddings', done, total: Math.max(total, done) });
  };
  progress({ phase: 'embeddings', done: 0, total });
  for await (const row of from.iterateEmbeddings()) {
    batch.push(row);
    if (batch.length >= EMBEDDING_BATCH) await flush();
  }
  if (batch.length > 0) await flush();
  return written;
}

/** What differs between the two stores after the copy (counts, checkpoints, embedding spaces). */
async function compare(from: Store, to: Store, source: StoreCounts, target: StoreCounts): Promise<string[]> {
  const out: string[] = [];
  for (const key of ['documents', 'chunks', 'embedded'] as const) {
    if (source[key] !== target[key]) out.push(`${key}: source ${source[key]}, target ${target[key]}`);
  }
  const checkpoints = (states: ConnectorState[]): string =>
    JSON.stringify(
      states
        .filter((s) => s.checkpoint !== null || s.lastSyncAt !== null)
        .sort((a, b) => (a.connector < b.connector ? -1 : 1)),
    );
  if (checkpoints(await from.sourceStates()) !== checkpoints(await to.sourceStates())) out.push('checkpoints differ');
  const spaces = (list: EmbeddingSpaceCount[]): string =>
    list
      .map((s) => `${s.model}/${s.dims}: ${s.count}`)
      .sort()
      .join(', ');
  const [a, b] = [spaces(await from.embeddingSpaces()), spaces(await to.embeddingSpaces())];
  if (a !== b) out.push(`embedding spaces: source ${a || 'none'}, target ${b || 'none'}`);
  return out;
}

function describe(c: StoreCounts & { checkpoints: number }): string {
  return `${c.documents} documents, ${c.chunks} chunks, ${c.embedded} embeddings, ${c.checkpoints} checkpoints`;
}
