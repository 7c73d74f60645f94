// The text of one comment as paragraphs, and greedy refilling of a paragraph to a width. Pure functions on lines of
// comment text (the `// ` or ` * ` prefix already stripped); knows nothing of files or syntax.

/** A run of comment lines: `wrap` false keeps the lines as they are (code, tables, directives, typed JSDoc tags). */
export interface Paragraph {
  lines: string[];
  wrap: boolean;
  /** Spaces before the continuation lines of a list item (`- `, `1. `): the marker's width. */
  hang: number;
}

const LIST_MARKER = /^([-*+•]|\d{1,3}[.)])\s+/;
/** Tool directives read line by line: wrapping one would change what it applies to. */
const DIRECTIVE =
  /^(eslint[- ]|@ts-|biome-ignore|prettier-ignore|#region|#endregion|c8 |istanbul |\/ <reference|global |exported )/;
/** A JSDoc tag with a type (`@param {…}`): a type expression is not split. */
const TYPED_TAG = /^@\w+\s*\{/;

export function toParagraphs(lines: readonly string[]): Paragraph[] {
  const out: Paragraph[] = [];
  let current: Paragraph | undefined;
  let fenced = false;
  const fixed = (line: string): void => {
    out.push({ lines: [line], wrap: false, hang: 0 });
    current = undefined;
  };
  for (const line of lines) {
    if (line.trimStart().startsWith('```')) {
      fenced = !fenced;
      fixed(line);
    } else if (fenced || line.trim() === '' || DIRECTIVE.test(line) || /^[|<]/.test(line)) fixed(line);
    else if (/^\s/.test(line)) {
      const indent = line.length - line.trimStart().length;
      if (current !== undefined && current.hang > 0 && indent === current.hang) current.lines.push(line.trimStart());
      else fixed(line);
    } else if (line.startsWith('@') || LIST_MARKER.test(line)) {
      const marker = LIST_MARKER.exec(line);
      current = { lines: [line], wrap: !TYPED_TAG.test(line), hang: marker === null ? 0 : marker[0].length };
      out.push(current);
    } else if (current !== undefined) current.lines.push(line);
    else {
      current = { lines: [line], wrap: true, hang: 0 };
      out.push(current);
    }
  }
  return out;
}

/**
 * A word that would read as a tag or a list item at the start of a line: the line is not broken before it (a tag
 * glued to its type, `@param {T} name`, may start a line: it is one already).
 */
const startsSomething = (word: string): boolean => /^@\S+$/.test(word) || /^([-*+•]|\d{1,3}[.)])$/.test(word);

const unclosed = (word: string): boolean => (word.match(/\{/g)?.length ?? 0) > (word.match(/\}/g)?.length ?? 0);

/**
 * Words kept on one line: a JSDoc tag with its type and name (`@param {Record<string, string>} params`), `ADR 0130`.
 */
const glued = (previous: string, word: string): boolean =>
  unclosed(previous) ||
  (/^@\w+$/.test(previous) && word.startsWith('{')) ||
  (/^@\w+ \{.*\}$/.test(previous) && !unclosed(previous)) ||
  (/^\(?ADR$/.test(previous) && /^\d/.test(word));

/** Length as an editor counts columns (code points, not UTF-16 units). */
export const columns = (s: string): number => [...s].length;

/**
 * Greedy fill: as many words on a line as fit in `width` columns (continuation lines indented by `hang`). A word
 * longer than a line (a URL) gets a line of its own.
 */
export function refill(paragraph: Paragraph, width: number): string[] {
  const words: string[] = [];
  for (const word of paragraph.lines.join(' ').split(/\s+/).filter(Boolean)) {
    const previous = words.at(-1);
    if (previous !== undefined && glued(previous, word)) words[words.length - 1] = `${previous} ${word}`;
    else words.push(word);
  }
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const room = width - (lines.length === 0 ? 0 : paragraph.hang);
    const cut = line.lastIndexOf(' ');
    if (line === '' || columns(line) + 1 + columns(word) <= room) line = line === '' ? word : `${line} ${word}`;
    else if (!startsSomething(word)) {
      lines.push(line);
      line = word;
    } else if (cut > 0) {
      lines.push(line.slice(0, cut)); // the word before goes down with it
      line = `${line.slice(cut + 1)} ${word}`;
    } else line = `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines.map((l, i) => (i === 0 ? l : ' '.repeat(paragraph.hang) + l));
}

/** The paragraphs as lines again: those with a line wider than `width` refilled, the others as they were. */
export function rewrapLines(lines: readonly string[], width: number): string[] {
  return toParagraphs(lines).flatMap((p) => {
    const original = p.lines.map((l, i) => (i === 0 ? l : ' '.repeat(p.hang) + l));
    return p.wrap && original.some((l) => columns(l) > width) ? refill(p, width) : original;
  });
}
