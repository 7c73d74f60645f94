// The Universal Sentence Encoder Lite's SentencePiece tokenizer (a unigram vocabulary, best-scoring
// split by dynamic programming), ported from @energetic-ai/embeddings (Apache-2.0, itself from
// @tensorflow-models/universal-sentence-encoder) so the ONNX runtime needs no TF.js. Gives the same
// token ids, quirks included (a test compares them); only faster: prefix lookups walk the trie from a
// position instead of copying the rest of the text for each one.

/** vocab.json: [piece, score] per token id. */
export type UseVocabulary = readonly (readonly [string, number])[];

const SEPARATOR = '\u2581';
const RESERVED_SYMBOLS = 6;

interface TrieNode {
  children: Map<string, TrieNode>;
  /** Set on a node ending a vocabulary piece. */
  piece: { length: number; score: number; index: number } | null;
}

interface Match {
  length: number;
  score: number;
  index: number;
}

export class UseTokenizer {
  private readonly vocabulary: UseVocabulary;
  private readonly root: TrieNode = { children: new Map(), piece: null };

  constructor(vocabulary: UseVocabulary) {
    this.vocabulary = vocabulary;
    for (let i = RESERVED_SYMBOLS; i < vocabulary.length; i++) {
      const [word, score] = vocabulary[i]!;
      const symbols = [...word];
      let node = this.root;
      for (const symbol of symbols) {
        let next = node.children.get(symbol);
        if (!next) node.children.set(symbol, (next = { children: new Map(), piece: null }));
        node = next;
      }
      node.piece = { length: symbols.length, score, index: i };
    }
  }

  encode(text: string): number[] {
    const normalized = text.normalize('NFKC');
    const symbols = normalized.length > 0 ? [...(SEPARATOR + normalized.replace(/ /g, SEPARATOR))] : [];
    const n = symbols.length;
    // 1. Every vocabulary piece starting at each position (the symbol itself, unknown, when none).
    const ending: Match[][] = Array.from({ length: n + 1 }, () => []);
    for (let i = 0; i < n; i++) {
      let node = this.root.children.get(symbols[i]!);
      let found = false;
      for (let j = i; j < n && node; j++) {
        if (node.piece) {
          ending[i + node.piece.length]!.push({
            length: node.piece.length,
            score: node.piece.score,
            index: node.piece.index,
          });
          found = true;
        }
        node = node.children.get(symbols[j + 1]!);
      }
      if (!found) ending[i + 1]!.push({ length: 1, score: 0, index: 0 });
    }
    // 2. The best-scoring split ending at each position (pieces by start position, the order step 1 added them).
    const words = new Array<number>(n + 1).fill(0);
    const best = new Array<number>(n + 1).fill(0);
    for (let end = 0; end <= n; end++) {
      for (const m of ending[end]!) {
        const score = m.score + best[end - m.length]!;
        if (best[end] === 0 || score >= best[end]!) {
          best[end] = score;
          words[end] = m.index;
        }
      }
    }
    // 3. Walk back from the end (by the piece's length in UTF-16 units, as the original does), merging repeated
    //    unknowns.
    const results: number[] = [];
    for (let at = n; at > 0; at -= this.vocabulary[words[at]!]![0].length) results.push(words[at]!);
    const merged: number[] = [];
    let previousUnknown = false;
    for (const id of results) {
      if (!(previousUnknown && id === 0)) merged.push(id);
      previousUnknown = id === 0;
    }
    return merged.reverse();
  }
}
