// The web page's Rerank toggle in a real browser against a real `kbctx serve` whose [rerank] points at the
// stand-in remote reranker (test/helpers/stand-in-reranker.ts), which reverses the fused order: on (the
// default) → reversed, with the rerank score and fused rank under Explain; off (by keyboard, kept in the
// URL) → the fused order, and the remote is not asked. Without [rerank] there is no toggle (web-page.test.ts).
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Page } from 'playwright-core';
import { startStandInReranker, type StandInReranker } from '../helpers/stand-in-reranker.ts';
import { Workspace } from '../helpers/workspace.ts';
import { openWebSession, type WebSession } from './web-session.ts';

let ws: Workspace;
let remote: StandInReranker;
let session: WebSession;
let page: Page;

const FUSED = ['Doc 1', 'Doc 2', 'Doc 3', 'Doc 4', 'Doc 5'];

before(async () => {
  remote = await startStandInReranker();
  ws = new Workspace('kbctx-web-rerank-');
  // Five documents with fewer and fewer mentions of the query word: a fixed keyword (fused) order.
  for (let i = 1; i <= 5; i++) ws.write(`docs/d${i}.md`, `# Doc ${i}\n\n${'alpha '.repeat(7 - i)}beta gamma ${i}\n`);
  ws.config(
    `[connectors.filesystem.docs]\nroot = "docs"\n\n[rerank]\n` +
      `provider = "http"\nformat = "tei"\nbase_url = "${remote.url}/tei"\n`,
  );
  const sync = await ws.kbctx(['sync', 'all']);
  assert.equal(sync.code, 0, sync.stderr);
  session = await openWebSession(ws);
  page = session.page;
});
after(async () => {
  await session?.close();
  await remote?.close();
  ws?.cleanup();
});

/** The result titles once the page shows a finished search (5 results) led by `first` (on and off differ there). */
async function titles(first: string): Promise<string[]> {
  await page
    .locator('.result-link')
    .first()
    .filter({ hasText: new RegExp(`^${first}$`) })
    .waitFor();
  await page
    .locator('#search-status')
    .filter({ hasText: /^5 results for “alpha”\.$/ })
    .waitFor();
  return page.locator('.result-link').allTextContents();
}

it('the Rerank toggle: on by default → the reranked order, explained; off by keyboard → the fused order', async () => {
  await session.open('#/?q=alpha');
  const toggle = page.getByLabel('Rerank');
  assert.equal(await toggle.isChecked(), true);
  assert.deepEqual(await titles('Doc 5'), [...FUSED].reverse());
  const first = page.locator('.result').first();
  await first.getByRole('button', { name: 'Explain' }).click();
  // The stand-in scores the last of 5 candidates (5 + 1 − 1) / 6.
  assert.match((await first.locator('.explain').textContent()) ?? '', /Rerank0\.8333Fused rank5/);

  const asked = remote.requests.length;
  await toggle.focus();
  await page.keyboard.press('Space');
  await page.waitForURL(/rerank=off/);
  assert.equal(await toggle.isChecked(), false);
  assert.deepEqual(await titles('Doc 1'), FUSED);
  await page.locator('.result').first().getByRole('button', { name: 'Explain' }).click();
  assert.doesNotMatch((await page.locator('.result .explain').first().textContent()) ?? '', /Rerank|Fused rank/);
  assert.equal(remote.requests.length, asked, 'rerank: false: the remote is not asked');

  await toggle.click();
  await page.waitForURL((url) => !url.hash.includes('rerank='));
  // Reranked again: the page the first search reranked, from the search cache (ADR 0197), so the remote need not be
  // asked.
  assert.deepEqual(await titles('Doc 5'), [...FUSED].reverse());
});

it('a link with rerank=off opens with the toggle off and the fused order', async () => {
  await session.open('#/?q=alpha&rerank=off');
  assert.equal(await page.getByLabel('Rerank').isChecked(), false);
  assert.deepEqual(await titles('Doc 1'), FUSED);
});

it('GET /web/info names the reranker (provider and model, nothing else)', async () => {
  const info = (await (await fetch(`${session.server.url}/web/info`)).json()) as { search: { reranker: unknown } };
  assert.deepEqual(info.search.reranker, { provider: 'http', model: null });
});

it('raised no script errors in the page', () => {
  assert.deepEqual(session.pageErrors, []);
});
