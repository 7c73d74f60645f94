// Splits a document body into retrieval chunks. Pure: text and sizes in, chunk pieces (text and the
// 1-based, inclusive body lines it covers; a line ends at \r\n, \r or \n) out.
//
// 1. Cut the text into blocks: Markdown headings, fenced code blocks (kept whole), and paragraphs
//    separated by blank lines.
// 2. Pack blocks greedily into chunks of at most `maxTokens` (estimated as 4 characters a token).
//    A heading starts a new chunk once the current one is at least half full, so sections stay together.
// 3. A block larger than a chunk is split at sentence ends, then at spaces, then hard.
// 4. Every chunk after the first starts with the last `overlapTokens` of the previous chunk,
//    cut at a word boundary, so text near a boundary is retrievable from both sides.
// Lines: every block remembers its first line, every chunk the offsets where its blocks start (`Seg`), so a
// chunk's first and last characters (the overlap's first one included) map back to body lines exactly.

import type { ChunkPiece } from '../../core/api/plugin.ts';

export interface ChunkSizes {
  maxTokens: number;
  overlapTokens: number;
}

const CHARS_PER_TOKEN = 4;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** The chunks' texts only (the API before chunks had lines; chunkPieces has them). */
export function chunkText(text: string, sizes: ChunkSizes): string[] {
  return chunkPieces(text, sizes).map((piece) => piece.text);
}

export function chunkPieces(text: string, sizes: ChunkSizes): ChunkPiece[] {
  const maxChars = Math.max(1, sizes.maxTokens) * CHARS_PER_TOKEN;
  const overlapChars = Math.min(Math.max(0, sizes.overlapTokens) * CHARS_PER_TOKEN, Math.floor(maxChars / 2));
  const budget = maxChars - overlapChars; // room for new text once the overlap is prefixed
  const packed = packBlocks(splitBlocks(text), budget);
  return addOverlap(packed, overlapChars);
}

interface Block {
  text: string;
  heading: boolean;
  /** The body line of the text's first character. */
  line: number;
}

/** A piece of a packed chunk: where it starts in the chunk's text, and that character's body line. */
interface Seg {
  at: number;
  line: number;
}

interface Packed {
  text: string;
  segs: Seg[];
}

function splitBlocks(text: string): Block[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let current: string[] = [];
  let currentLine = 1;
  let fence: string | null = null;
  const flush = (): void => {
    const joined = current.join('\n').trim();
    if (joined) blocks.push({ text: joined, heading: false, line: currentLine });
    current = [];
  };
  const add = (line: string, n: number): void => {
    if (current.length === 0) currentLine = n;
    current.push(line);
  };
  for (const [i, line] of lines.entries()) {
    const n = i + 1;
    const fenceMatch = /^\s*(```|~~~)/.exec(line);
    if (fence) {
      add(line, n);
      if (fenceMatch && fenceMatch[1] === fence) {
        fence = null;
        flush();
      }
      continue;
    }
    if (fenceMatch) {
      flush();
      fence = fenceMatch[1] ?? '```';
      add(line, n);
    } else if (/^#{1,6}\s/.test(line)) {
      flush();
      blocks.push({ text: line.trim(), heading: true, line: n });
    } else if (line.trim() === '') {
      flush();
    } else {
      add(line, n);
    }
  }
  flush();
  return blocks;
}

function packBlocks(blocks: Block[], budget: number): Packed[] {
  const chunks: Packed[] = [];
  let current: Packed = { text: '', segs: [] };
  const push = (): void => {
    if (current.text) chunks.push(current);
    current = { text: '', segs: [] };
  };
  for (const block of blocks) {
    if (block.heading && current.text.length >= budget / 2) push();
    const pieces = block.text.length > budget ? splitLong(block.text, budget) : [{ text: block.text, at: 0 }];
    for (const piece of pieces) {
      const line = block.line + newlines(block.text, 0, piece.at);
      const joined = current.text ? `${current.text}\n\n${piece.text}` : piece.text;
      if (joined.length <= budget) {
        current.segs.push({ at: joined.length - piece.text.length, line });
        current.text = joined;
      } else {
        push();
        current = { text: piece.text, segs: [{ at: 0, line }] };
      }
    }
  }
  push();
  return chunks;
}

/** Splits text longer than `budget` at sentence ends, else spaces, else hard: trimmed pieces and their offsets. */
function splitLong(text: string, budget: number): { text: string; at: number }[] {
  const out: { text: string; at: number }[] = [];
  let pos = 0;
  const take = (raw: string): void => {
    const piece = raw.trim();
    if (piece) out.push({ text: piece, at: pos + raw.length - raw.trimStart().length });
  };
  while (text.length - pos > budget) {
    const window = text.slice(pos, pos + budget);
    let cut = Math.max(
      window.lastIndexOf('. '),
      window.lastIndexOf('.\n'),
      window.lastIndexOf('? '),
      window.lastIndexOf('! '),
    );
    if (cut > budget / 3) cut += 1;
    else {
      cut = Math.max(window.lastIndexOf(' '), window.lastIndexOf('\n'));
      if (cut < budget / 3) cut = budget;
    }
    take(text.slice(pos, pos + cut));
    pos += cut;
    const rest = text.slice(pos);
    pos += rest.length - rest.trimStart().length;
  }
  take(text.slice(pos));
  return out;
}

function addOverlap(chunks: Packed[], overlapChars: number): ChunkPiece[] {
  return chunks.map((chunk, i) => {
    const lineEnd = lineIn(chunk, chunk.text.length - 1);
    const prev = i > 0 ? chunks[i - 1] : undefined;
    if (prev === undefined || overlapChars <= 0) return { text: chunk.text, lineStart: lineIn(chunk, 0), lineEnd };
    const tail = tailAtWord(prev.text, overlapChars);
    return { text: `${tail}\n\n${chunk.text}`, lineStart: lineIn(prev, prev.text.length - tail.length), lineEnd };
  });
}

/** The body line of the character at `offset` of a packed chunk. */
function lineIn(chunk: Packed, offset: number): number {
  let seg = chunk.segs[0] ?? { at: 0, line: 1 };
  for (const s of chunk.segs) if (s.at <= offset) seg = s;
  return seg.line + newlines(chunk.text, seg.at, offset);
}

function newlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

/** The last ~`chars` characters of `text`, starting at a word boundary. */
function tailAtWord(text: string, chars: number): string {
  if (text.length <= chars) return text;
  const start = text.length - chars;
  const space = text.indexOf(' ', start);
  return (space >= 0 && space < text.length - 1 ? text.slice(space + 1) : text.slice(start)).trim();
}
