// marked's lexer with its work bounded. marked recurses once per level of nesting (lists, quotes,
// emphasis, links) and reads a nested block's text again at every level, so a 10,000-level list
// overflows the stack and a deep list with a long body runs for minutes on the page's only thread.
// Counting both here, at the two methods every level goes through, stops such a document after a
// bounded amount of work with `MarkdownTooHeavy`; the caller shows it as plain text instead.

import { Lexer } from '../vendor/marked.js';

/** Nesting levels (block and inline); real documents use fewer than 8. */
export const MAX_DEPTH = 24;
/** Characters read over all levels; real documents read each character about 3 times. */
export const MAX_WORK = 2_000_000;

export class MarkdownTooHeavy extends Error {}

export class BoundedLexer extends Lexer {
  depth = 0;
  work = 0;

  /** @param {string} src @param {any} [tokens] @param {boolean} [lastParagraphClipped] @returns {any} */
  blockTokens(src, tokens, lastParagraphClipped) {
    this.enter(src);
    try {
      return super.blockTokens(src, tokens, lastParagraphClipped);
    } finally {
      this.depth -= 1;
    }
  }

  /** @param {string} src @param {import('../vendor/marked.js').Token[]} [tokens] */
  inlineTokens(src, tokens) {
    this.enter(src);
    try {
      return super.inlineTokens(src, tokens);
    } finally {
      this.depth -= 1;
    }
  }

  /** @param {string} src */
  enter(src) {
    this.work += src.length;
    if (this.depth >= MAX_DEPTH) throw new MarkdownTooHeavy(`it is nested more than ${MAX_DEPTH} levels deep`);
    if (this.work > MAX_WORK) throw new MarkdownTooHeavy('it is too complex to render as Markdown');
    this.depth += 1;
  }
}
