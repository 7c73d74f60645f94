// Document bodies → safe HTML: Markdown rendered by marked, then sanitised by DOMPurify (no script,
// no event handlers, no javascript: URLs, no forms or frames). Links open in a new tab without a
// referrer. The page's CSP blocks anything that slipped through; this is the first line.
import { marked } from '../vendor/marked.js';
import DOMPurify from '../vendor/dompurify.js';

const FORBID_TAGS = ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed', 'dialog'];

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A' && node.hasAttribute('href')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

/** @param {string} markdown @returns {string} sanitised HTML */
export function renderMarkdown(markdown) {
  const raw = marked.parse(markdown, { async: false, gfm: true });
  return DOMPurify.sanitize(raw, { FORBID_TAGS, FORBID_ATTR: ['style'], ALLOW_DATA_ATTR: false });
}
