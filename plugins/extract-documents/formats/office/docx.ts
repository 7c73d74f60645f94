// DOCX → text: one paragraph per <w:p> (heading styles become Markdown headings, list paragraphs `- `),
// tabs and line breaks kept; deleted revisions and field codes left out. Title from the core properties
// or the first Title/Heading 1 paragraph.
import type { Extracted } from '../../../extract-text/api.ts';
import { openPackage, walkXml } from './ooxml.ts';

export function extractDocx(bytes: Uint8Array): Extracted {
  const pkg = openPackage(bytes, (name) => name === 'word/document.xml');
  const xml = pkg.part('word/document.xml');
  if (xml === undefined) throw new Error('not a Word document (no word/document.xml)');
  const paragraphs: string[] = [];
  let text = '';
  let prefix = '';
  let inText = false;
  let headingTitle: string | undefined;
  walkXml(xml, {
    open(name, attrs) {
      if (name === 'w:p') [text, prefix] = ['', ''];
      else if (name === 'w:t') inText = true;
      else if (name === 'w:tab') text += '\t';
      else if (name === 'w:br' || name === 'w:cr') text += '\n';
      else if (name === 'w:numPr') prefix ||= '- ';
      else if (name === 'w:pStyle') {
        const style = (attrs['w:val'] ?? '').toLowerCase();
        const level = /^heading(\d)$/.exec(style)?.[1];
        if (style === 'title') prefix = '# ';
        else if (level) prefix = `${'#'.repeat(Math.min(6, Number(level)))} `;
      }
    },
    text(t) {
      if (inText) text += t;
    },
    close(name) {
      if (name === 'w:t') inText = false;
      else if (name === 'w:p') {
        const clean = text.replace(/[ \t]+\n/g, '\n').trim();
        if (!clean) return;
        if (prefix.startsWith('# ') && headingTitle === undefined) headingTitle = clean;
        paragraphs.push(prefix + clean);
      }
    },
  });
  return {
    title: pkg.title() ?? headingTitle,
    body: paragraphs.join('\n\n'),
    contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  };
}
