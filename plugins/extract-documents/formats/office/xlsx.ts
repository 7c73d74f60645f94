// XLSX → text: each sheet as a `## <sheet name>` heading followed by one line per row, the row's
// non-empty cells joined by ` | `. Cells keep their stored value: shared and inline strings, numbers
// (as written, e.g. 3.14; dates stay serial numbers), booleans as TRUE/FALSE, errors as their code.
import type { Extracted } from '../../../extract-text/api.ts';
import { openPackage, walkXml } from './ooxml.ts';

export function extractXlsx(bytes: Uint8Array): Extracted {
  const pkg = openPackage(
    bytes,
    (name) => name === 'xl/workbook.xml' || name === 'xl/sharedStrings.xml' || name.startsWith('xl/worksheets/'),
  );
  const workbook = pkg.part('xl/workbook.xml');
  if (workbook === undefined) throw new Error('not an Excel workbook (no xl/workbook.xml)');
  const rels = pkg.rels('xl/workbook.xml');
  const sheets: { name: string; part: string }[] = [];
  walkXml(workbook, {
    open(name, attrs) {
      const part = name === 'sheet' ? rels.get(attrs['r:id'] ?? '') : undefined;
      if (part) sheets.push({ name: attrs['name'] ?? part, part });
    },
  });
  const shared = sharedStrings(pkg.part('xl/sharedStrings.xml'));
  const sections: string[] = [];
  for (const sheet of sheets) {
    const xml = pkg.part(sheet.part);
    if (xml === undefined) continue;
    const rows = sheetRows(xml, shared);
    sections.push(rows.length > 0 ? `## ${sheet.name}\n\n${rows.join('\n')}` : `## ${sheet.name}`);
  }
  return {
    title: pkg.title(),
    body: sections.join('\n\n'),
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    metadata: { sheets: sheets.map((s) => s.name) },
  };
}

/** The shared string table: each <si>'s text (rich-text runs joined; phonetic hints left out). */
function sharedStrings(xml: string | undefined): string[] {
  const strings: string[] = [];
  if (xml === undefined) return strings;
  let current = '';
  let inText = false;
  let phonetic = 0;
  walkXml(xml, {
    open(name) {
      if (name === 'si') current = '';
      else if (name === 'rPh') phonetic++;
      else if (name === 't') inText = phonetic === 0;
    },
    text: (t) => void (inText && (current += t)),
    close(name) {
      if (name === 't') inText = false;
      else if (name === 'rPh') phonetic--;
      else if (name === 'si') strings.push(current);
    },
  });
  return strings;
}

function sheetRows(xml: string, shared: readonly string[]): string[] {
  const rows: string[] = [];
  let cells: string[] = [];
  let type = '';
  let value = '';
  let capture = false;
  walkXml(xml, {
    open(name, attrs) {
      if (name === 'row') cells = [];
      else if (name === 'c') [type, value] = [attrs['t'] ?? 'n', ''];
      else if (name === 'v' || name === 't') capture = true;
    },
    text: (t) => void (capture && (value += t)),
    close(name) {
      if (name === 'v' || name === 't') capture = false;
      else if (name === 'c') {
        const shown = cellText(type, value, shared);
        if (shown.trim()) cells.push(shown.trim());
      } else if (name === 'row' && cells.length > 0) rows.push(cells.join(' | '));
    },
  });
  return rows;
}

function cellText(type: string, value: string, shared: readonly string[]): string {
  if (type === 's') return shared[Number(value)] ?? '';
  if (type === 'b') return value === '1' ? 'TRUE' : 'FALSE';
  return value; // n (number), str (formula result), inlineStr (<is><t>), e (error code)
}
