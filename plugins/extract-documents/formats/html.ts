// HTML → text with its structure: headings become Markdown headings, paragraphs, list items (`- `),
// table rows and other blocks become paragraphs; scripts, styles and other non-content are dropped.
// Title from <title>, else the first <h1>. Uses htmlparser2's streaming parser (forgiving, no DOM).
import { decodeText, type Extracted } from '../../extract-text/api.ts';
import { Parser } from 'htmlparser2';

const BLOCKS = new Set(
  (
    'p div section article header footer main nav aside li ul ol dl dt dd blockquote pre table tr thead tbody ' +
    'tfoot caption figure figcaption hr address details summary form fieldset h1 h2 h3 h4 h5 h6'
  ).split(' '),
);
const SKIPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'iframe',
  'object',
  'head',
  'select',
  'button',
]);

export function extractHtml(bytes: Uint8Array): Extracted {
  const blocks: string[] = [];
  let line = '';
  let prefix = '';
  let skipDepth = 0;
  let preDepth = 0;
  let inTitle = false;
  let title = '';
  let firstH1: string | undefined;
  let inH1 = false;
  let h1 = '';
  let description: string | undefined;

  const flush = (): void => {
    const text =
      preDepth > 0
        ? line.replace(/^\n+|\s+$/g, '')
        : line
            .replace(/[ \t\r\n\f]+/g, ' ')
            .replace(/ ?\n ?/g, '\n')
            .trim();
    if (text) blocks.push(prefix + text);
    line = '';
    prefix = '';
  };

  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (name === 'title') inTitle = true;
        if (name === 'meta' && attribs['name']?.toLowerCase() === 'description')
          description = attribs['content']?.trim() || undefined;
        if (SKIPPED.has(name)) skipDepth++;
        if (skipDepth > 0) return;
        if (BLOCKS.has(name)) flush();
        if (name === 'pre') preDepth++;
        const level = /^h([1-6])$/.exec(name)?.[1];
        if (level) prefix = `${'#'.repeat(Number(level))} `;
        if (name === 'h1') [inH1, h1] = [true, ''];
        if (name === 'li') prefix = '- ';
        if (name === 'br') line += '\n';
        if ((name === 'td' || name === 'th') && line.trim()) line += ' | ';
        if (name === 'img' && attribs['alt']?.trim()) line += ` ${attribs['alt'].trim()} `;
      },
      ontext(text) {
        if (inTitle) title += text;
        if (skipDepth > 0) return;
        line += text;
        if (inH1) h1 += text;
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false;
        if (SKIPPED.has(name)) skipDepth = Math.max(0, skipDepth - 1);
        if (skipDepth > 0) return;
        if (name === 'h1' && inH1) {
          inH1 = false;
          firstH1 ??= h1.replace(/\s+/g, ' ').trim() || undefined;
        }
        if (BLOCKS.has(name)) flush();
        if (name === 'pre') preDepth = Math.max(0, preDepth - 1);
      },
    },
    { decodeEntities: true },
  );
  parser.write(decodeText(bytes));
  parser.end();
  flush();
  const cleanTitle = title.replace(/\s+/g, ' ').trim();
  return {
    title: cleanTitle || firstH1,
    body: blocks.join('\n\n'),
    contentType: 'text/html',
    metadata: description ? { description } : undefined,
  };
}
