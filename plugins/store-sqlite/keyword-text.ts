// The text FTS5 indexes for a chunk: the CJK-segmented chunk text, then its symbol path's words (ADR 0210).
// The document writer and the postings reader both use it, so the postings hold exactly FTS5's terms.
import { segmentCjk } from '../../core/api/algorithms.ts';
import { symbolWords } from './keyword/symbol-words.ts';

export function keywordText(text: string, symbol: string | null | undefined): string {
  const segmented = segmentCjk(text);
  return symbol ? `${segmented}\n${symbolWords(symbol)}` : segmented;
}
