// A BEIR corpus indexed into a temporary index with the configured settings (chunking, embedding,
// retrieval, keyword engine; [db] and the connectors replaced): each document written as Markdown
// (`# title`, a blank line, the text) and indexed through the real path (filesystem connector → sync).
// The caller owns the folder and removes it; it must not touch the configured index.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type Config, type Kbctx } from '../../core/api/plugin.ts';
import { DEFAULT_MAX_FILE_BYTES } from '../extract-text/api.ts';
import { embedPending, selectConnectors, syncConnectors, type EmbedProgress } from '../../core/api/engine.ts';
import type { BeirDoc } from './beir.ts';
import type { EvalResult } from './run-eval.ts';

export interface CorpusIndex {
  kbctx: Kbctx;
  /** The corpus id of a result (its file's name, decoded). */
  idOf: (result: EvalResult) => string;
  documents: number;
  chunks: number;
}

const fileName = (id: string): string => `${encodeURIComponent(id)}.md`;

/** Writes the corpus as `<encoded id>.md` files into `folder`. */
export function writeCorpus(docs: readonly BeirDoc[], folder: string): void {
  mkdirSync(folder, { recursive: true });
  for (const d of docs)
    writeFileSync(path.join(folder, fileName(d.id)), `${d.title ? `# ${d.title}\n\n` : ''}${d.text}\n`);
}

/**
 * The configured settings on a fresh index in `dir` holding the corpus folder `corpus`: SQLite (a LanceDB folder
 * when [db] engine is lancedb), chunked at `chunkTokens` when given (overlap capped at half of it).
 */
export function corpusConfig(config: Config, dir: string, corpus: string, chunkTokens: number | null): Config {
  const lance = config.db.engine === 'lancedb';
  const suffix = chunkTokens === null ? '' : `-${chunkTokens}`;
  const connectors = Object.fromEntries(Object.keys(config.connectors).map((type) => [type, {}]));
  return {
    ...config,
    db: {
      ...config.db,
      engine: lance ? 'lancedb' : 'sqlite',
      url: null,
      path: path.join(dir, lance ? `index${suffix}.lance` : `index${suffix}.sqlite`),
    },
    chunking:
      chunkTokens === null
        ? config.chunking
        : {
            maxTokens: chunkTokens,
            overlapTokens: Math.min(config.chunking.overlapTokens, Math.floor(chunkTokens / 2)),
          },
    connectors: {
      ...connectors,
      filesystem: {
        eval: {
          root: corpus,
          includeGlobs: ['*.md'],
          excludeGlobs: [],
          followSymlinks: false,
          maxFileBytes: DEFAULT_MAX_FILE_BYTES,
          chunker: 'auto',
        },
      },
    },
  };
}

/**
 * Syncs the corpus into `open(config)`'s index, then embeds it when `embed` (vectors for semantic and hybrid),
 * reporting the embedding's progress to `onEmbed`.
 */
export async function indexCorpus(
  open: (config: Config) => Kbctx,
  config: Config,
  embed: boolean,
  onEmbed?: (p: EmbedProgress) => void,
): Promise<CorpusIndex> {
  const kbctx = open(config);
  const connectors = await Promise.all(selectConnectors(config, 'all').map((r) => kbctx.index.createConnector(r)));
  const [report] = await syncConnectors({ ...kbctx.index.syncDeps(), afterConnector: undefined }, connectors, {
    full: false,
  });
  if (report?.failure) throw new Error(`indexing the corpus failed: ${report.failure.message}`);
  const embedder = embed ? kbctx.index.embedder() : null;
  if (embedder) {
    const embedded = await embedPending({ store: kbctx.store, embedder, onProgress: onEmbed });
    if (embedded.failure) throw new Error(`embedding the corpus failed: ${embedded.failure.message}`);
  }
  const counts = await kbctx.store.counts();
  return {
    kbctx,
    idOf: (r) => decodeURIComponent(r.sourceId.replace(/\.md$/, '')),
    documents: counts.documents,
    chunks: counts.chunks,
  };
}
