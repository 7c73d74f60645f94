// Word segmentation for Chinese, Japanese and Korean, applied to text before it reaches FTS5 (titles and
// chunks, at index time) and to queries (analyze-query.ts), so both sides cut CJK text the same way.
// FTS5's unicode61 tokenizer splits only at spaces and punctuation, so an unsegmented run such as
// `東京オフィスのカフェは抹茶ラテを提供します` would otherwise be one unfindable token.
//
// 1. Leave text without CJK characters untouched (the fast path: English corpora never pay).
// 2. Cut each run of Han, kana and Hangul into words with Intl.Segmenter (ICU's dictionary), separated by spaces.
// 3. Korean words (eojeol) carry their particles (`서울에서`): add their Hangul bigrams, so `서울` matches.
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー々〆ヶ]+/gu;
const HANGUL_WORD = /^\p{Script=Hangul}{3,}$/u;

let segmenter: Intl.Segmenter | undefined;

export function hasCjk(text: string): boolean {
  return CJK_CHAR.test(text);
}

/** `text` with spaces between its CJK words (and Hangul bigrams after long Korean words); other text as is. */
export function segmentCjk(text: string): string {
  if (!hasCjk(text)) return text;
  segmenter ??= new Intl.Segmenter('ja', { granularity: 'word' });
  const seg = segmenter;
  return text.replace(CJK_RUN, (run) => {
    const words: string[] = [];
    for (const part of seg.segment(run)) {
      if (!part.isWordLike) continue;
      words.push(part.segment);
      if (HANGUL_WORD.test(part.segment)) words.push(...bigrams(part.segment));
    }
    return ` ${words.join(' ')} `;
  });
}

function bigrams(word: string): string[] {
  const chars = [...word];
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  return out;
}
