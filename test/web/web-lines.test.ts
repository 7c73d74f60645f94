// The web page and line ranges (ADR 0210), in a real browser: a hit shows `source_id:start-end`, opens the document
// at `#/doc/<id>?lines=start-end`, which shows numbered lines with exactly those highlighted and scrolled into view.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Page } from 'playwright-core';
import { Workspace } from '../helpers/workspace.ts';
import { openWebSession, type WebSession } from './web-session.ts';

// The browser globals the page.evaluate callback uses (the test program is checked without the DOM library).
declare const document: {
  querySelector(selector: string): { getBoundingClientRect(): { top: number; bottom: number } } | null;
};
declare const window: { innerHeight: number };

// 150 filler lines, then the narwhal paragraph on lines 151-152, then 100 more.
const filler = (from: number, n: number): string[] =>
  Array.from({ length: n }, (_, i) => `Filler line ${from + i} about ordinary things.`);
const LONG = [...filler(1, 150), 'The narwhal has a long tusk', 'and lives in arctic water.', ...filler(153, 100)].join(
  '\n',
);

let ws: Workspace;
let session: WebSession;
let page: Page;

before(async () => {
  ws = new Workspace('kbctx-web-lines-');
  ws.write('docs/long.txt', LONG);
  ws.write('docs/walrus.md', '---\ntags: [sea]\n---\n# Walrus\n\nThe walrus has whiskers.\n');
  ws.config('[chunking]\nmax_tokens = 60\noverlap_tokens = 0\n[connectors.filesystem.docs]\nroot = "docs"\n');
  const sync = await ws.kbctx(['sync', 'all']);
  assert.equal(sync.code, 0, sync.stderr);
  session = await openWebSession(ws);
  page = session.page;
});
after(async () => {
  await session?.close();
  ws?.cleanup();
});

it('a hit links to its lines; the document view highlights exactly them and scrolls them into view', async () => {
  await session.open('');
  await page.getByLabel('Search', { exact: true }).fill('narwhal');
  const first = page.locator('.result').first();
  await first.waitFor();
  const where = (await first.locator('.where').textContent()) ?? '';
  const m = /^long\.txt:(\d+)-(\d+)$/.exec(where);
  assert.ok(m, where);
  const [start, end] = [Number(m[1]), Number(m[2])];
  assert.ok(start <= 151 && end >= 152 && end - start < 10, where);
  await first.locator('.result-link').click();
  await page.locator('.line.hl').first().waitFor();
  assert.match(page.url(), new RegExp(`#/doc/[^?]+\\?lines=${start}-${end}$`));
  const highlighted = await page.locator('.line.hl').allTextContents();
  assert.equal(highlighted.length, end - start + 1);
  assert.ok(highlighted.join('\n').includes('The narwhal has a long tusk\nand lives in arctic water.'));
  assert.equal(await page.locator(`#L${start}`).getAttribute('class'), 'line hl');
  assert.equal(await page.locator(`#L${start - 1}`).getAttribute('class'), 'line');
  const visible = await page.evaluate((id) => {
    const box = document.querySelector(id)?.getBoundingClientRect();
    return box !== undefined && box.top >= 0 && box.bottom <= window.innerHeight;
  }, `#L${start}`);
  assert.equal(visible, true, 'the first highlighted line is in view');
  await page.getByRole('link', { name: 'Show the whole document' }).click();
  await page.locator('.body.plain').waitFor();
  assert.equal(await page.locator('.line.hl').count(), 0);
  assert.deepEqual(session.pageErrors, []);
});

it('a Markdown document opens rendered; "Show lines" switches to the highlighted lines', async () => {
  await session.open('');
  await page.getByLabel('Search', { exact: true }).fill('walrus');
  const first = page.locator('.result').first();
  await first.waitFor();
  assert.equal(await first.locator('.where').textContent(), 'walrus.md:4-6');
  await first.locator('.result-link').click();
  await page.locator('.body.markdown').waitFor();
  await page.getByRole('button', { name: 'Show lines 4–6' }).click();
  assert.deepEqual(await page.locator('.line.hl').allTextContents(), ['# Walrus', ' ', 'The walrus has whiskers.']);
  assert.deepEqual(session.pageErrors, []);
});
