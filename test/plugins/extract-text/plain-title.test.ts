import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractMarkdown } from '../../../plugins/extract-text/markdown.ts';
import { toPlainTitle } from '../../../plugins/extract-text/plain-title.ts';

describe('toPlainTitle', () => {
  it('drops HTML tags and badge images', () => {
    assert.equal(toPlainTitle('YAML <a href="https://x"><img src="b.svg" alt="badge"></a>'), 'YAML');
    assert.equal(toPlainTitle('Project [![build](https://ci/badge.svg)](https://ci) docs'), 'Project docs');
  });

  it('keeps the text of emphasis, code, links and inline HTML; decodes entities and escapes', () => {
    assert.equal(
      toPlainTitle('Use **bold**, _em_ and `npm run` with [the guide](http://x)'),
      'Use bold, em and npm run with the guide',
    );
    assert.equal(toPlainTitle('Tom &amp; Jerry <b>forever</b> \\*not em\\*'), 'Tom & Jerry forever *not em*');
  });

  it('keeps image alt text when the title is only an image', () => {
    assert.equal(toPlainTitle('![kbctx logo](logo.png)'), 'kbctx logo');
  });

  it('applies to Markdown headings and front-matter titles', async () => {
    assert.equal((await extractMarkdown('# The `kbctx` CLI <img src="x.svg">\n\nBody')).title, 'The kbctx CLI');
    assert.equal((await extractMarkdown('---\ntitle: "**Release** notes"\n---\nBody')).title, 'Release notes');
  });
});
