// End-to-end: documents of every format synced by the real CLI from a folder; a corrupt and an oversize
// file are skipped with a warning and a count while the rest is indexed.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { makeDocx, makePdf, makePptx, makeXlsx } from './helpers/documents.ts';
import { Workspace } from './helpers/workspace.ts';

describe('sync of document formats', () => {
  const ws = new Workspace();
  after(() => ws.cleanup());

  it('indexes HTML, PDF, DOCX, PPTX and XLSX, skipping corrupt and oversize files', async () => {
    ws.write('kb/page.html', '<title>Tidal pools</title><p>anemones and barnacles</p>');
    ws.write('kb/guide.pdf', await makePdf());
    ws.write('kb/report.docx', makeDocx());
    ws.write('kb/deck.pptx', makePptx());
    ws.write('kb/budget.xlsx', makeXlsx());
    ws.write('kb/broken.pdf', 'this is not a pdf at all');
    ws.write('kb/huge.html', `<p>${'x'.repeat(5000)}</p>`);
    ws.config('[connectors.filesystem.kb]\nroot = "kb"\ninclude_globs = ["**/*"]\nmax_file_bytes = 4000\n');
    const r = await ws.kbctx(['sync', 'all']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /filesystem:kb: fetched 7, upserted 5, .*skipped 2, errors 0/);
    assert.match(r.stderr, /skipped broken\.pdf: cannot extract \.pdf/);
    assert.match(r.stderr, /skipped huge\.html: 5\d+ bytes is over max_file_bytes/);
    for (const [query, id] of [
      ['barnacles', 'page.html'],
      ['herons', 'guide.pdf'],
      ['revenue', 'report.docx'],
      ['agenda', 'deck.pptx'],
      ['coffee', 'budget.xlsx'],
    ]) {
      const found = await ws.kbctx(['search', query ?? '', '--json']);
      const results = (JSON.parse(found.stdout) as { results: { source_id: string }[] }).results;
      assert.equal(results[0]?.source_id, id, query);
    }
  });
});
