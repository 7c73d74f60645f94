import type { Extracted } from '../../extract-text/api.ts';
// PDF → text through unpdf (a serverless PDF.js build, pure JS). Text items are grouped into lines by
// their baseline and lines into paragraphs where the vertical gap is larger than a line; pages are
// separated by a blank line. Title from the document info. A PDF without a text layer yields no text.

interface TextItem {
  str: string;
  y: number;
  fontSize: number;
  hasEOL: boolean;
}

interface Line {
  text: string;
  y: number;
  size: number;
}

export async function extractPdf(bytes: Uint8Array): Promise<Extracted> {
  const { getDocumentProxy, extractTextItems, getMeta } = await import('unpdf');
  // PDF.js takes ownership of (detaches) the buffer it is given: hand it a copy.
  const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
  try {
    const { items } = await extractTextItems(pdf);
    const meta = await getMeta(pdf).catch(() => ({ info: {} as Record<string, unknown> }));
    const pages = items.map((page) => toParagraphs(toLines(page)).join('\n\n')).filter((p) => p.trim());
    const title = typeof meta.info['Title'] === 'string' ? meta.info['Title'].trim() : '';
    return {
      title: title || undefined,
      body: pages.join('\n\n'),
      contentType: 'application/pdf',
      metadata: { pages: items.length },
    };
  } finally {
    await pdf.loadingTask.destroy();
  }
}

/** Items in content order → lines: a new line at an end-of-line mark or when the baseline moves. */
function toLines(items: readonly TextItem[]): Line[] {
  const lines: Line[] = [];
  let cur: Line = { text: '', y: Number.NaN, size: 0 };
  const push = (): void => {
    if (cur.text.trim()) lines.push({ ...cur, text: cur.text.replace(/\s+/g, ' ').trim() });
    cur = { text: '', y: Number.NaN, size: 0 };
  };
  for (const item of items) {
    if (cur.text && item.str && Math.abs(item.y - cur.y) > Math.max(cur.size, item.fontSize) * 0.5) push();
    if (item.str) {
      if (!cur.text) cur.y = item.y;
      cur.text += item.str;
      cur.size = Math.max(cur.size, item.fontSize);
    }
    if (item.hasEOL) push();
  }
  push();
  return lines;
}

/** Lines → paragraphs: a gap over ~1.6 line heights (or a jump up, e.g. a new column) starts one. */
function toParagraphs(lines: readonly Line[]): string[] {
  const paragraphs: string[] = [];
  let current = '';
  let prev: Line | undefined;
  for (const line of lines) {
    const gap = prev ? prev.y - line.y : 0;
    const lineHeight = Math.max(prev?.size ?? 0, line.size, 1);
    if (prev && (gap > lineHeight * 1.6 || gap < 0)) {
      paragraphs.push(current);
      current = '';
    }
    current = !current
      ? line.text
      : current.endsWith('-')
        ? current.slice(0, -1) + line.text
        : `${current} ${line.text}`;
    prev = line;
  }
  if (current) paragraphs.push(current);
  return paragraphs;
}
