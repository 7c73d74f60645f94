// `kbctx doctor`'s integrity report for the LanceDB store: the table's rows read afresh (duplicate row
// keys, chunks without their document, embeddings without their chunk) compared with the keyword
// postings table the searches read (its rows, and the documents whose postings differ: differences()).
import type { IntegrityReport } from '../../core/api/plugin.ts';
import type { Model } from './model.ts';
import { plainRows } from './rows.ts';

/** What the postings table holds against the main table (null: there is none, a read-only index of before it). */
export interface PostingsCheck {
  rows: number;
  differ: readonly string[];
  extra: readonly string[];
}

export function tableIntegrity(
  model: Model,
  table: Parameters<typeof plainRows>[0],
  postings: PostingsCheck | null,
): IntegrityReport {
  const rows = postings?.rows ?? 0;
  const read = plainRows(table, ['row_key', 'kind', 'doc_id']);
  const docs = new Set<string>();
  const withChunks = new Set<string>();
  const chunks = new Set<string>();
  const embeddings: string[] = [];
  const keys = new Set<string>();
  const problems: string[] = [];
  for (const r of read) {
    const key = r['row_key'] as string;
    if (keys.has(key)) problems.push(`duplicate row ${key}`);
    keys.add(key);
    if (r['kind'] === 'doc') docs.add(r['doc_id'] as string);
    else if (r['kind'] === 'chunk') {
      chunks.add(key.slice(2));
      withChunks.add(r['doc_id'] as string);
    } else if (r['kind'] === 'emb') embeddings.push(key.slice(2));
  }
  const orphanChunks = [...chunks].filter((id) => !docs.has(model.chunks.get(id)?.chunk.documentId ?? '')).length;
  if (orphanChunks > 0) problems.push(`${orphanChunks} chunks without their document`);
  return {
    sqlite: problems,
    fts: postingsProblem(postings, chunks.size),
    chunks: chunks.size,
    ftsRows: rows,
    documentsWithoutChunks: [...docs].filter((id) => !withChunks.has(id)).length,
    orphanEmbeddings: embeddings.filter((id) => !chunks.has(id)).length,
    vectorIndexes: [],
  };
}

function postingsProblem(postings: PostingsCheck | null, chunks: number): string | null {
  const fix = 'a writable open (any sync) catches the keyword postings up';
  if (postings === null) return `the index has no keyword postings table; ${fix}`;
  const { rows, differ, extra } = postings;
  if (differ.length > 0 || extra.length > 0)
    return (
      `the keyword postings differ from the table for ${differ.length} documents ` +
      `and hold ${extra.length} removed ones; ${fix}`
    );
  return rows === chunks ? null : `the keyword postings hold ${rows} rows, the table ${chunks} chunks; ${fix}`;
}
