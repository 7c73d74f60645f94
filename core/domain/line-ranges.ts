// Source line ranges of chunks (ADR 0210): where a chunker's plain strings sit in a document body, and a chunk's place
// as search results carry it. Pure: strings in, numbers out. How a hit is cited (`path:12-48`) and how `get` reads a
// `lines=12-48` range are tools-builtin's (its wire.ts and documents.ts, ADR 0249).
//
// A line ends at "\r\n", "\r" or "\n" (as the default chunker reads a body), and lines count from 1.
// Locating a plain-string chunk (a chunker that returns `string[]`):
// 1. Compare without whitespace: chunkers trim, re-join blocks with blank lines and normalise line ends,
//    so the body and each chunk are reduced to their non-whitespace characters, each keeping its body offset.
// 2. Search forward from the previous found chunk's *start* (not its end: chunks may overlap), preferring an
//    occurrence that reaches past the previous chunk's end, so repeated text resolves in reading order; when
//    nothing is found from there, search the whole body once.
// 3. The chunk spans from the line of its first to the line of its last non-whitespace character;
//    a chunk that is not found (a chunker that rewrites text) gets null lines.
import type { Chunk } from './models.ts';

/** A chunk's 1-based, inclusive lines; null when unknown. */
export interface LineSpan {
  lineStart: number | null;
  lineEnd: number | null;
}

/** Offsets at which each line of `text` starts (the first is 0). */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    }
  }
  return starts;
}

/** The 1-based line of `offset`, given lineStarts(text). */
export function lineAt(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/** The text's non-whitespace characters, and each one's offset in the text. */
function squeeze(text: string): { chars: string; offsets: number[] } {
  const out: string[] = [];
  const offsets: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const c = text[i] ?? '';
    // ASCII decided by code (the common case, no regex per character); others by \s as the chunk side is.
    if (code < 128 ? code !== 32 && (code < 9 || code > 13) : !/\s/.test(c)) {
      out.push(c);
      offsets.push(i);
    }
  }
  return { chars: out.join(''), offsets };
}

/** The lines of each chunk text in `body` (steps 1–3 above), in order. */
export function locateChunks(body: string, texts: readonly string[]): LineSpan[] {
  const starts = lineStarts(body);
  const hay = squeeze(body);
  let from = 0;
  let end = 0;
  return texts.map((text) => {
    const needle = text.replace(/\s+/g, '');
    if (needle === '') return { lineStart: null, lineEnd: null };
    let at = hay.chars.indexOf(needle, from);
    // Prefer an occurrence reaching past the previous chunk: text repeated within it is not the next chunk.
    let later = at;
    while (later >= 0 && later + needle.length <= end) later = hay.chars.indexOf(needle, later + 1);
    if (later >= 0) at = later;
    if (at < 0) at = hay.chars.indexOf(needle);
    if (at < 0) return { lineStart: null, lineEnd: null };
    from = at;
    end = at + needle.length;
    return {
      lineStart: lineAt(starts, hay.offsets[at] ?? 0),
      lineEnd: lineAt(starts, hay.offsets[at + needle.length - 1] ?? 0),
    };
  });
}

/** What a search result shows of its chunk's place: lines, symbol and language (null when unknown). */
export function chunkPlace(chunk: Chunk): {
  lineStart: number | null;
  lineEnd: number | null;
  symbol: string | null;
  lang: string | null;
} {
  return {
    lineStart: chunk.lineStart ?? null,
    lineEnd: chunk.lineEnd ?? null,
    symbol: chunk.symbol ?? null,
    lang: chunk.lang ?? null,
  };
}
