// Splits a document body into retrieval chunks. Pure: text and sizes in, strings out.
//
// 1. Cut the text into blocks: Markdown headings, fenced code blocks (kept whole), and paragraphs
//    separated by blank lines.
// 2. Pack blocks greedily into chunks of at most `maxTokens` (estimated as 4 characters a token).
//    A heading starts a new chunk once the current one is at least half full, so sections stay together.
// 3. A block larger than a chunk is split at sentence ends, then at spaces, then hard.
// 4. Every chunk after the first starts with the last `overlapTokens` of the previous chunk,
//    cut at a word boundary, so text near a boundary is retrievable from both sides.

export interface ChunkSizes {
  maxTokens: number;
  overlapTokens: number;
}

const CHARS_PER_TOKEN = 4;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

export function chunkText(text: string, sizes: ChunkSizes): string[] {
  const maxChars = Math.max(1, sizes.maxTokens) * CHARS_PER_TOKEN;
  const overlapChars = Math.min(Math.max(0, sizes.overlapTokens) * CHARS_PER_TOKEN, Math.floor(maxChars / 2));
  const budget = maxChars - overlapChars; // room for new text once the overlap is prefixed
  const packed = packBlocks(splitBlocks(text), budget);
  return addOverlap(packed, overlapChars);
}

interface Block {
  text: string;
  heading: boolean;
}

function splitBlocks(text: string): Block[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let current: string[] = [];
  let fence: string | null = null;
  const flush = (): void => {
    const joined = current.join('\n').trim();
    if (joined) blocks.push({ text: joined, heading: false });
    current = [];
  };
  for (const line of lines) {
    const fenceMatch = /^\s*(```|~~~)/.exec(line);
    if (fence) {
      current.push(line);
      if (fenceMatch && fenceMatch[1] === fence) {
        fence = null;
        flush();
      }
      continue;
    }
    if (fenceMatch) {
      flush();
      fence = fenceMatch[1] ?? '```';
      current.push(line);
    } else if (/^#{1,6}\s/.test(line)) {
      flush();
      blocks.push({ text: line.trim(), heading: true });
    } else if (line.trim() === '') {
      flush();
    } else {
      current.push(line);
    }
  }
  flush();
  return blocks;
}

function packBlocks(blocks: Block[], budget: number): string[] {
  const chunks: string[] = [];
  let current = '';
  const push = (): void => {
    if (current.trim()) chunks.push(current.trim());
    current = '';
  };
  for (const block of blocks) {
    if (block.heading && current.length >= budget / 2) push();
    const pieces = block.text.length > budget ? splitLong(block.text, budget) : [block.text];
    for (const piece of pieces) {
      const joined = current ? `${current}\n\n${piece}` : piece;
      if (joined.length <= budget) {
        current = joined;
      } else {
        push();
        current = piece;
      }
    }
  }
  push();
  return chunks;
}

/** Splits text longer than `budget` at sentence ends, else spaces, else hard. */
function splitLong(text: string, budget: number): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest.length > budget) {
    const window = rest.slice(0, budget);
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
    out.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trimStart();
  }
  if (rest.trim()) out.push(rest.trim());
  return out;
}

function addOverlap(chunks: string[], overlapChars: number): string[] {
  if (overlapChars <= 0) return chunks;
  return chunks.map((chunk, i) => {
    const prev = i > 0 ? chunks[i - 1] : undefined;
    if (prev === undefined) return chunk;
    return `${tailAtWord(prev, overlapChars)}\n\n${chunk}`;
  });
}

/** The last ~`chars` characters of `text`, starting at a word boundary. */
function tailAtWord(text: string, chars: number): string {
  if (text.length <= chars) return text;
  const start = text.length - chars;
  const space = text.indexOf(' ', start);
  return (space >= 0 && space < text.length - 1 ? text.slice(space + 1) : text.slice(start)).trim();
}
