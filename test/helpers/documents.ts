// Small real documents generated for format tests: DOCX/PPTX/XLSX as zips of hand-written Office XML
// (fflate), PDF drawn with pdf-lib. Each holds known text so extraction can be checked exactly.
import { strToU8, zipSync } from 'fflate';
import { PDFDocument, StandardFonts } from 'pdf-lib';

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const REL = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const core = (title: string): string =>
  `<?xml version="1.0"?><cp:coreProperties ` +
  `xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" ` +
  `xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>${title}</dc:title></cp:coreProperties>`;
const rels = (items: [string, string][]): string =>
  `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items
    .map(([id, target]) => `<Relationship Id="${id}" Type="x" Target="${target}"/>`)
    .join('')}</Relationships>`;
const zip = (files: Record<string, string>): Uint8Array =>
  zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, strToU8(v)])));

export function makeDocx(): Uint8Array {
  const p = (text: string, style?: string, list = false): string =>
    `<w:p><w:pPr>${style ? `<w:pStyle w:val="${style}"/>` : ''}` +
    `${list ? '<w:numPr><w:ilvl w:val="0"/></w:numPr>' : ''}</w:pPr><w:r><w:t ` +
    `xml:space="preserve">${text}</w:t></w:r></w:p>`;
  const body = [
    p('Quarterly Report', 'Heading1'),
    p('Revenue grew &amp; costs fell.'),
    `<w:p><w:r><w:t>Left</w:t></w:r><w:r><w:tab/><w:t>Right</w:t></w:r><w:r><w:delText>deleted ` +
      `words</w:delText></w:r></w:p>`,
    p('first point', undefined, true),
  ].join('');
  return zip({
    'word/document.xml': `<?xml version="1.0"?><w:document ${W}><w:body>${body}</w:body></w:document>`,
    'docProps/core.xml': core('Q3 Report'),
  });
}

export function makePptx(): Uint8Array {
  const A =
    'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ' +
    'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
  const slide = (title: string, lines: string[]): string =>
    `<?xml version="1.0"?><p:sld ${A}><p:cSld><p:spTree>` +
    `<p:sp><p:nvSpPr><p:nvPr><p:ph ` +
    `type="title"/></p:nvPr></p:nvSpPr><p:txBody><a:p><a:r><a:t>${title}</a:t></a:r></a:p></p:txBody></p:sp>` +
    `<p:sp><p:nvSpPr><p:nvPr/></p:nvSpPr><p:txBody>` +
    `${lines.map((l) => `<a:p><a:r><a:t>${l}</a:t></a:r></a:p>`).join('')}</p:txBody></p:sp>` +
    `</p:spTree></p:cSld></p:sld>`;
  return zip({
    // Presentation order is slide2 then slide1: file names must not decide the order.
    'ppt/presentation.xml':
      `<?xml version="1.0"?><p:presentation ${A} ${REL}><p:sldIdLst><p:sldId id="256" r:id="rId2"/><p:sldId ` +
      `id="257" r:id="rId1"/></p:sldIdLst></p:presentation>`,
    'ppt/_rels/presentation.xml.rels': rels([
      ['rId1', 'slides/slide1.xml'],
      ['rId2', 'slides/slide2.xml'],
    ]),
    'ppt/slides/slide1.xml': slide('Second Slide', ['closing thoughts']),
    'ppt/slides/slide2.xml': slide('Opening Slide', ['agenda item one', 'agenda item two']),
  });
}

export function makeXlsx(): Uint8Array {
  const S = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
  return zip({
    'xl/workbook.xml':
      `<?xml version="1.0"?><workbook ${S} ${REL}><sheets><sheet name="Budget" sheetId="1" r:id="rId1"/><sheet ` +
      `name="Notes" sheetId="2" r:id="rId2"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': rels([
      ['rId1', 'worksheets/sheet1.xml'],
      ['rId2', '/xl/worksheets/sheet2.xml'],
    ]),
    'xl/sharedStrings.xml':
      `<?xml version="1.0"?><sst ` +
      `${S}><si><t>Item</t></si><si><t>Amount</t></si><si><r><t>Coff</t></r><r><t>ee</t></r></si></sst>`,
    'xl/worksheets/sheet1.xml':
      `<?xml version="1.0"?><worksheet ${S}><sheetData>` +
      `<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>` +
      `<row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2"><v>3.75</v></c><c r="C2" t="b"><v>1</v></c></row>` +
      `<row r="3"><c r="A3" t="inlineStr"><is><t>Total</t></is></c><c r="B3"><f>SUM(B2)</f><v>3.75</v></c></row>` +
      `</sheetData></worksheet>`,
    'xl/worksheets/sheet2.xml':
      `<?xml version="1.0"?><worksheet ${S}><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>remember the ` +
      `milk</t></is></c></row></sheetData></worksheet>`,
  });
}

export async function makePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle('Field Guide');
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([600, 800]);
  const lines: [string, number][] = [
    ['Owls hunt at night and', 740],
    ['sleep during the day.', 726],
    ['Herons wade in shallow water.', 680],
  ];
  for (const [text, y] of lines) page.drawText(text, { x: 50, y, size: 12, font });
  doc.addPage([600, 800]).drawText('Second page text.', { x: 50, y: 740, size: 12, font });
  return doc.save();
}
