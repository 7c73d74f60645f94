// The extract-documents plugin and the `extract.for(extension)` hook, through the real CLI: a
// third-party plugin adds a format (.rst) and overrides one (.html); dropping extract-documents skips
// PDF, Office and HTML files as unsupported while Markdown and plain text still index.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makePdf, makeXlsx } from '../helpers/documents.ts';
import { Workspace } from '../helpers/workspace.ts';

const RST_PLUGIN = `export default {
  name: 'acme-rst',
  version: '1.0.0',
  kbctx: '^0.2',
  apply(kernel) {
    kernel.hooks.extract.for('rst').tapPromise('acme-rst', async ({ bytes, extension, maxFileBytes }) => {
      const [title, , ...rest] = new TextDecoder().decode(bytes).split('\\n');
      return { text: rest.join('\\n'), title, metadata: { extension, maxFileBytes } };
    });
    kernel.hooks.extract.for('html').tapPromise('acme-rst', async () => ({
      text: 'markup replaced by the acme extractor', title: 'From acme' }));
  },
};
`;

interface Doc {
  title: string;
  body: string;
  content_type: string;
  metadata: Record<string, unknown>;
}

describe('extract.for(extension): a third-party extractor', () => {
  const ws = new Workspace();
  const search = async (query: string): Promise<{ id: string; source_id: string; title: string }[]> =>
    (
      JSON.parse((await ws.kbctx(['search', query, '--json'])).stdout) as {
        results: { id: string; source_id: string; title: string }[];
      }
    ).results;
  before(async () => {
    ws.write('kb/guide.rst', 'Widget guide\n============\nHow to fold the widgets neatly.\n');
    ws.write('kb/page.html', '<title>Tidal pools</title><p>anemones and barnacles</p>');
    ws.write('kb/guide.pdf', await makePdf());
    ws.write('plugins/rst.mjs', RST_PLUGIN);
    ws.config(
      'plugins = ["bundled", "./plugins/rst.mjs"]\n[connectors.filesystem.kb]\nroot = "kb"\ninclude_globs = ' +
        '["**/*"]\nmax_file_bytes = 100000\n',
    );
    const r = await ws.kbctx(['sync', 'all']);
    assert.equal(r.code, 0, r.stderr);
  });
  after(() => ws.cleanup());

  it('indexes a new extension end to end with its title, text and metadata', async () => {
    const [hit] = await search('widgets');
    assert.equal(hit?.source_id, 'guide.rst');
    assert.equal(hit.title, 'Widget guide');
    const doc = JSON.parse((await ws.kbctx(['get', hit.id, '--json'])).stdout) as Doc;
    assert.equal(doc.body, 'How to fold the widgets neatly.\n');
    assert.equal(doc.content_type, 'text/x-rst');
    assert.equal(doc.metadata['extension'], 'rst');
    assert.equal(doc.metadata['maxFileBytes'], 100000);
  });

  it('overrides a bundled format, and the other bundled formats still extract', async () => {
    assert.equal((await search('barnacles')).length, 0);
    assert.equal((await search('acme extractor'))[0]?.title, 'From acme');
    assert.equal((await search('herons'))[0]?.source_id, 'guide.pdf');
  });

  it('kbctx plugins lists the hooks each extractor taps', async () => {
    const listed = JSON.parse((await ws.kbctx(['plugins', '--json'])).stdout) as {
      plugins: { name: string; hooks: string[]; provides: string[] }[];
    };
    assert.deepEqual(listed.plugins.find((p) => p.name === 'acme-rst')?.hooks.sort(), [
      'extract.for("html")',
      'extract.for("rst")',
    ]);
    const bundled = listed.plugins.find((p) => p.name === 'extract-documents');
    assert.ok(bundled?.hooks.includes('extract.for("pdf")'));
    assert.ok(bundled!.provides.includes('format:docx'));
  });
});

describe('"!extract-documents"', () => {
  const ws = new Workspace();
  after(() => ws.cleanup());

  it('skips PDF, Office and HTML files as unsupported; Markdown and plain text still index', async () => {
    ws.write('kb/notes.md', '# Notes\n\nThe heron nests by the lake.\n');
    ws.write('kb/plain.txt', 'plain words about herons');
    ws.write('kb/guide.pdf', await makePdf());
    ws.write('kb/budget.xlsx', makeXlsx());
    ws.write('kb/page.html', '<p>anemones</p>');
    ws.config(
      'plugins = ["bundled", "!extract-documents"]\n' +
        '[connectors.filesystem.kb]\nroot = "kb"\ninclude_globs = ["**/*"]\n',
    );
    const { code, reports, stderr } = await ws.syncJson('all');
    assert.equal(code, 0, stderr);
    const [report] = reports;
    assert.equal(report?.upserted, 2);
    assert.equal(report.skipped, 3);
    for (const file of ['guide.pdf', 'budget.xlsx', 'page.html']) {
      const ext = file.slice(file.lastIndexOf('.'));
      assert.ok(
        report.notes.includes(
          `skipped ${file}: no loaded plugin extracts ${ext} files (the bundled plugin extract-documents does: ` +
            `check plugins in the config)`,
        ),
        report.notes.join('\n'),
      );
    }
  });
});
