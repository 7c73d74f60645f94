// Format extraction on documents generated in the test: HTML, PDF, DOCX, PPTX, XLSX through the
// extract-documents plugin on a real kernel; corrupt files fail as `extract_failed` (never a throw);
// binary files without a format are still skipped.
import {
  extractText as extractWithOptions,
  type Extracted,
  type ExtractOutcome,
} from '../../../../plugins/extract-text/api.ts';
import assert from 'node:assert/strict';
import { strToU8, zipSync } from 'fflate';
import { describe, it } from 'node:test';
import { makeDocx, makePdf, makePptx, makeXlsx } from '../../../helpers/documents.ts';
import { Kernel } from '../../../../core/kernel.ts';
import extractDocuments from '../../../../plugins/extract-documents/index.ts';
import { pipelineOf } from '../../../../core/app/plugin-pipeline.ts';
import { MAX_XML_DEPTH } from '../../../../plugins/extract-documents/formats/office/ooxml.ts';

const kernel = new Kernel();
kernel.applySync(extractDocuments, {}, 'bundled', 'extract-documents');
const pipeline = pipelineOf(kernel);
const extractText = (name: string, bytes: Uint8Array): Promise<ExtractOutcome> =>
  extractWithOptions(name, bytes, { maxFileBytes: 10_000_000, extraction: (r) => pipeline.extract(r) });

async function extract(name: string, bytes: Uint8Array | string): Promise<Extracted> {
  const outcome = await extractText(name, typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes);
  assert.ok(outcome.ok, outcome.ok ? '' : outcome.detail);
  return outcome.value;
}

describe('document formats', () => {
  it('HTML: title, headings, paragraphs and list items; scripts dropped', async () => {
    const html =
      '<html><head><title> Garden &amp; Care </title><style>p{}</style><meta name="description" content="How ' +
      'to"></head>' +
      '<body><script>var x = "hidden";</script><h1>Roses</h1><p>Water   them\n ' +
      'weekly.</p><ul><li>prune</li><li>feed</li></ul>' +
      '<table><tr><td>a</td><td>b</td></tr></table><pre>  keep\n  spacing</pre></body></html>';
    const v = await extract('page.html', html);
    assert.equal(v.title, 'Garden & Care');
    assert.equal(v.body, '# Roses\n\nWater them weekly.\n\n- prune\n\n- feed\n\na | b\n\n  keep\n  spacing');
    assert.deepEqual(v.metadata, { description: 'How to' });
    const untitled = await extract('x.htm', '<body><h1>Only heading</h1><p>text</p></body>');
    assert.equal(untitled.title, 'Only heading');
  });

  it('PDF: lines joined into paragraphs, pages separated, title from the info dictionary', async () => {
    const v = await extract('guide.pdf', await makePdf());
    assert.equal(v.title, 'Field Guide');
    assert.equal(
      v.body,
      'Owls hunt at night and sleep during the day.\n\nHerons wade in shallow water.\n\nSecond page text.',
    );
    assert.equal(v.contentType, 'application/pdf');
  });

  it('DOCX: paragraphs, headings, tabs, list items; deleted text left out', async () => {
    const v = await extract('report.docx', makeDocx());
    assert.equal(v.title, 'Q3 Report');
    assert.equal(v.body, '# Quarterly Report\n\nRevenue grew & costs fell.\n\nLeft\tRight\n\n- first point');
  });

  it('PPTX: slides in presentation order with titles', async () => {
    const v = await extract('deck.pptx', makePptx());
    assert.equal(v.title, 'Opening Slide');
    assert.equal(
      v.body,
      '## Opening Slide\n\nagenda item one\n\nagenda item two\n\n## Second Slide\n\nclosing thoughts',
    );
  });

  it('XLSX: sheet names, shared and inline strings, numbers and booleans', async () => {
    const v = await extract('budget.xlsx', makeXlsx());
    assert.equal(
      v.body,
      '## Budget\n\nItem | Amount\nCoffee | 3.75 | TRUE\nTotal | 3.75\n\n## Notes\n\nremember the milk',
    );
    assert.deepEqual(v.metadata, { sheets: ['Budget', 'Notes'] });
  });

  it('DOCX nested deeper than the limit is skipped as extract_failed with the reason, not indexed empty', async () => {
    const depth = MAX_XML_DEPTH * 4;
    const xml =
      `<?xml version="1.0"?><w:document ` +
      `xmlns:w="x"><w:body>${'<w:sdt><w:sdtContent>'.repeat(depth)}<w:p><w:r><w:t>deep ` +
      `zebra</w:t></w:r></w:p>${'</w:sdtContent></w:sdt>'.repeat(depth)}</w:body></w:document>`;
    const outcome = await extractText('deep.docx', zipSync({ 'word/document.xml': strToU8(xml) }));
    assert.deepEqual(outcome, {
      ok: false,
      reason: 'extract_failed',
      detail:
        `cannot extract .docx: its XML nests elements deeper ` +
        `than ${MAX_XML_DEPTH} levels (plugin extract-documents)`,
    });
    const shallow =
      `<?xml version="1.0"?><w:document ` +
      `xmlns:w="x"><w:body>${'<w:sdt><w:sdtContent>'.repeat(100)}<w:p><w:r><w:t>deep ` +
      `zebra</w:t></w:r></w:p>${'</w:sdtContent></w:sdt>'.repeat(100)}</w:body></w:document>`;
    assert.equal((await extract('nested.docx', zipSync({ 'word/document.xml': strToU8(shallow) }))).body, 'deep zebra');
  });

  it('UTF-16 text with a byte-order mark (LE and BE) is decoded, not skipped as binary', async () => {
    const text = '# Überschrift\n\nzebra crossing 東京';
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const be = Buffer.from(le.subarray(2)).swap16();
    for (const bytes of [le, Buffer.concat([Buffer.from([0xfe, 0xff]), be])]) {
      assert.equal((await extract('notes.txt', bytes)).body, text);
      const md = await extract('notes.md', bytes);
      assert.equal(md.title, 'Überschrift');
    }
    const nul = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a\u0000b', 'utf16le')]);
    const outcome = await extractText('nul.txt', nul);
    assert.equal(outcome.ok ? 'ok' : outcome.reason, 'binary', 'a NUL character still means binary');
  });

  it('corrupt documents fail as extract_failed, binaries are skipped as binary', async () => {
    const junk = new Uint8Array([1, 2, 3, 0, 5, 6, 7, 8, 9]);
    for (const name of ['a.pdf', 'a.docx', 'a.pptx', 'a.xlsx']) {
      const outcome = await extractText(name, junk);
      assert.equal(outcome.ok ? 'ok' : outcome.reason, 'extract_failed', name);
    }
    const notWord = await extractText('a.docx', makeXlsx());
    assert.equal(notWord.ok ? 'ok' : notWord.reason, 'extract_failed');
    const bin = await extractText('a.dat', junk);
    assert.equal(bin.ok ? 'ok' : bin.reason, 'binary');
  });
});
