// Documents the Markdown renderer cannot handle in bounded time, indexed for real and opened in a
// real browser (issue 21 item 9): a 10,000-level nested list (marked overflows its stack), a
// 3,000-level indented list and a 1,000-level list with a long body (minutes on the page's only
// thread). Each opens within the normal wait as plain text with a note, and the page stays usable.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { Workspace } from '../helpers/workspace.ts';
import { createWebWorkspace } from './web-fixture.ts';
import { openWebSession, type WebSession } from './web-session.ts';

declare const document: { querySelector(selector: string): { textContent: string | null } | null };

const HEAVY_DOCS: Record<string, string> = {
  'docs/deep-list.md': '# Deep list\n\n' + '- '.repeat(10_000) + 'the innermost item\n',
  'docs/indented-list.md':
    '# Indented list\n\n' +
    Array.from({ length: 3_000 }, (_, i) => `${' '.repeat(2 * i)}- level ${i}`).join('\n') +
    '\n',
  'docs/long-nested-list.md':
    '# Long nested list\n\n' +
    '- '.repeat(1_000) +
    'the innermost item\n' +
    'a lazy line of the innermost item\n'.repeat(5_000),
};

let ws: Workspace;
let session: WebSession;

before(async () => {
  ws = await createWebWorkspace();
  for (const [file, text] of Object.entries(HEAVY_DOCS)) ws.write(file, text);
  const sync = await ws.kbctx(['sync', 'all']);
  assert.equal(sync.code, 0, sync.stderr);
  session = await openWebSession(ws);
});
after(async () => {
  await session?.close();
  ws?.cleanup();
});

/** Searches for `title` on a fresh load of the page and opens that result. */
async function openDocument(title: string): Promise<Page> {
  const { page } = session;
  await session.open(`#/?q=${encodeURIComponent(title)}`);
  await page.locator('.result-link', { hasText: title }).first().click();
  await page.locator('#doc-title').filter({ hasText: title }).waitFor();
  return page;
}

for (const [title, reason, innermost] of [
  ['Deep list', /nested more than \d+ levels deep/, 'the innermost item'],
  ['Indented list', /larger than [\d,]+ characters/, '- level 2999'],
  [
    'Long nested list',
    /nested more than \d+ levels deep|too complex to render as Markdown/,
    'a lazy line of the innermost item',
  ],
] as const) {
  it(`${title}: shown as plain text with a note, and the page stays usable`, async () => {
    const page = await openDocument(title);
    // The plain-text note; a result opened at its lines also has the "Show lines" note (ADR 0210).
    const note = page.getByRole('note').filter({ hasText: 'Shown as plain text' });
    await note.waitFor();
    assert.match((await note.textContent()) ?? '', new RegExp(`^Shown as plain text: it is (${reason.source})\\.$`));
    assert.equal(await page.locator('.body.markdown').count(), 0);
    assert.equal(
      await page.evaluate(
        (text) => document.querySelector('.body.plain')?.textContent?.includes(text) ?? false,
        innermost,
      ),
      true,
    );
    await page.getByLabel('Show chunk boundaries').check(); // the page still answers
    await page.locator('.chunk-head').first().waitFor();
  });
}

it('an ordinary Markdown document still renders as Markdown, without the note', async () => {
  const page = await openDocument('Foxes of the northern woods');
  await page.locator('.markdown h2').waitFor();
  assert.equal(await page.getByRole('note').filter({ hasText: 'Shown as plain text' }).count(), 0);
});

it('raised no script errors in the page', () => {
  assert.deepEqual(session.pageErrors, []);
});
