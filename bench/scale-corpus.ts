// bench:scale's corpus: SciFact replicated (ids altered, texts kept), document i made on demand so any size streams
// through with only SciFact's 5,183 rows in memory. Filterable shape: four folders, five tags, two teams.
import path from 'node:path';
import { toDocument } from '../core/app/sync.ts';
import type { Chunk } from '../core/domain/models.ts';
import type { StoredDocument } from '../core/store/store.ts';
import { readJsonl, SCIFACT_DIR } from '../test/eval/scifact.ts';
import { toChunks } from '../test/helpers/chunks.ts';

export interface SciFactRow {
  _id: string;
  title: string;
  text: string;
}

export const loadSciFact = (): SciFactRow[] => readJsonl<SciFactRow>(path.join(SCIFACT_DIR, 'corpus.jsonl'));

/** Document `i` of the replicated corpus and its chunks (chunker-default, 700/80 tokens). */
export function scaleDocument(corpus: readonly SciFactRow[], i: number): { doc: StoredDocument; chunks: Chunk[] } {
  const d = corpus[i % corpus.length]!;
  const copy = Math.floor(i / corpus.length);
  const sourceId = `area${i % 4}/${d._id}-r${copy}.md`;
  const metadata = { tags: [`t${i % 5}`], team: i % 3 === 0 ? 'infra' : 'web' };
  const doc = toDocument(
    { sourceId, title: d.title, body: `# ${d.title}\n\n${d.text}\n`, metadata },
    `scifact:${sourceId}`,
    'filesystem:scifact',
    'filesystem:scifact',
  );
  return { doc, chunks: toChunks(doc, { maxTokens: 700, overlapTokens: 80 }) };
}
