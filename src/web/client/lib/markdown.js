// Document bodies → safe HTML: Markdown rendered by marked, then sanitised by DOMPurify (no script,
// no event handlers, no javascript: URLs, no forms, frames or styles). Only absolute http(s) and
// mailto links stay links (new tab, no referrer); images other than data: URIs lose their source and
// show their alt text (the CSP would block them anyway). The page's CSP is the second line.
import { marked } from '../vendor/marked.js';
import DOMPurify from '../vendor/dompurify.js';

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

/** @param {string} markdown @returns {string} sanitised HTML */
export function renderMarkdown(markdown) {
  const raw = marked.parse(markdown, { async: false, gfm: true });
  return DOMPurify.sanitize(raw, { FORBID_TAGS, FORBID_ATTR: ['style'], ALLOW_DATA_ATTR: false });
}
