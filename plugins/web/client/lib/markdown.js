// Document bodies → safe HTML: Markdown rendered by marked, then sanitised by DOMPurify (no script,
// no event handlers, no javascript: URLs, no forms, frames or styles). Only absolute http(s) and
// mailto links stay links (new tab, no referrer); images other than data: URIs lose their source and
// show their alt text (the CSP would block them anyway). The page's CSP is the second line.
// A document too large or too deeply nested to render in bounded time is left as plain text.
import { Parser } from '../vendor/marked.js';
import DOMPurify from '../vendor/dompurify.js';
import { BoundedLexer, MarkdownTooHeavy } from './bounded-lexer.js';

/** Larger documents are shown as plain text without trying. */
export const MAX_MARKDOWN_CHARS = 500_000;

const FORBID_TAGS = ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed', 'dialog'];

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A' && node.hasAttribute('href')) {
    if (/^(https?:|mailto:)/i.test(node.getAttribute('href') ?? '')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    } else {
      node.removeAttribute('href'); // relative and #fragment links point into this page, not the document's site
    }
  }
  if (node.tagName === 'IMG' && !/^data:image\//i.test(node.getAttribute('src') ?? '')) {
    node.removeAttribute('src');
    node.removeAttribute('srcset');
  }
});

/** @typedef {{ html: string } | { plainBecause: string }} RenderedMarkdown */

/** @param {string} markdown @returns {RenderedMarkdown} sanitised HTML, or why the text should be shown as it is */
export function renderMarkdown(markdown) {
  if (markdown.length > MAX_MARKDOWN_CHARS)
    return { plainBecause: `it is larger than ${MAX_MARKDOWN_CHARS.toLocaleString('en')} characters` };
  let raw;
  try {
    raw = Parser.parse(new BoundedLexer().lex(markdown));
  } catch (error) {
    return { plainBecause: error instanceof MarkdownTooHeavy ? error.message : 'it could not be rendered as Markdown' };
  }
  return { html: DOMPurify.sanitize(raw, { FORBID_TAGS, FORBID_ATTR: ['style'], ALLOW_DATA_ATTR: false }) };
}
