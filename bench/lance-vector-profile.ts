// `node bench/lance-vector-profile.ts build|run <dir> [size]`: where the ms of one LanceDB store vector query go
// at bench:stores' sizes (SciFact replicated, random 384-dim vectors): build once into <dir>, then time the store's
// query and Lance's query alone with other refine / nprobes / select settings, and the recall@10 of each against
// the exact scan of the same vectors. A profiling aid (ADR 0244); prints numbers only.
import path from 'node:path';
import { toDocument } from '../core/app/sync.ts';
import { toChunks } from '../test/helpers/chunks.ts';
import { readJsonl, SCIFACT_DIR } from '../test/eval/scifact.ts';
import { openLanceStore } from '../plugins/store-lancedb/lance-store.ts';
import { SPACE, writeRandomEmbeddings } from './bench-store.ts';

const [, , mode, dir, sizeArg] = process.argv;
const file = path.join(dir!, 'index.lance');

if (mode === 'build') {
  const size = Number(sizeArg ?? 51830);
  const corpus = readJsonl<{ _id: string; title: string; text: string }>(path.join(SCIFACT_DIR, 'corpus.jsonl'));
  const writer = await openLanceStore(file, 'create');
  await writer.beginBulk();
  for (let i = 0; i < size; i++) {
    const d = corpus[i % corpus.length]!;
    const sourceId = `${d._id}-r${Math.floor(i / corpus.length)}.md`;
    // Ten labels, so a source filter passes about 10 % of the documents.
    const label = `filesystem:s${i % 10}`;
    const doc = toDocument(
      { sourceId, title: d.title, body: `# ${d.title}\n\n${d.text}\n` },
      `scifact:${sourceId}`,
      label,
      label,
    );
    await writer.upsertDocument(doc, toChunks(doc, { maxTokens: 700, overlapTokens: 80 }), null);
  }
  await writer.endBulk();
  await writer.compact();
  await writeRandomEmbeddings(writer);
  console.log(await writer.refreshVectorIndex(SPACE));
  await writer.compact();
  await writer.close();
} else {
  const { runProfile } = await import('./lance-vector-profile-run.ts');
  await runProfile(file);
}
