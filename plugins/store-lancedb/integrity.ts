// `kbctx doctor`'s integrity report for the LanceDB store: the table's rows read afresh (duplicate row
// keys, chunks without their document, embeddings without their chunk) compared with the keyword index
// the in-memory model searches.
import type { IntegrityReport } from '../../core/api/plugin.ts';
import type { Model } from './model.ts';
import { plainRows } from './rows.ts';

export function tableIntegrity(model: Model, table: Parameters<typeof plainRows>[0]): IntegrityReport {
  const rows = model.keywordRows() ?? 0;
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
    fts: rows === chunks.size ? null : `the keyword index holds ${rows} rows, the table ${chunks.size} chunks`,
    chunks: chunks.size,
    ftsRows: rows,
    documentsWithoutChunks: [...docs].filter((id) => !withChunks.has(id)).length,
    orphanEmbeddings: embeddings.filter((id) => !chunks.has(id)).length,
    vectorIndexes: [],
  };
}
