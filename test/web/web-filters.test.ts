// The web page's Language, Type, Meta and Until filters in a real browser against a real `kbctx serve`: each
// narrows the results, lives in the URL (a reload shows the same search), and a bad value shows the server's 400.
import assert from 'node:assert/strict';
import { utimesSync } from 'node:fs';
import { after, before, it } from 'node:test';
import type { Page } from 'playwright-core';
import { Workspace } from '../helpers/workspace.ts';
import { openWebSession, type WebSession } from './web-session.ts';

const OLD = new Date('2025-06-01T10:00:00Z');
const NEW = new Date('2026-01-15T10:00:00Z');
const DOCS: [string, string, Date][] = [
  ['docs/otter-infra.md', '---\nteam: infra\ntier: 1\n---\n# Otter runbook\n\nThe otter pages the infra team.\n', OLD],
  ['docs/otter-web.md', '---\nteam: web\ntier: 2\n---\n# Otter page\n\nThe otter page for the web team.\n', NEW],
  ['docs/otter.ts', '// The otter counter in TypeScript.\nexport const otter = 1;\n', NEW],
  ['docs/otter.py', '# The otter counter in Python.\notter = 1\n', OLD],
  ['docs/otter.txt', 'Plain notes about the otter.\n', NEW],
];

let ws: Workspace;
let session: WebSession;
let page: Page;

before(async () => {
  ws = new Workspace('kbctx-web-filters-');
  for (const [file, text, time] of DOCS) utimesSync(ws.write(file, text), time, time);
  ws.config(
    '[connectors.filesystem.docs]\nroot = "docs"\ninclude_globs = ["**/*.md", "**/*.ts", "**/*.py", "**/*.txt"]\n',
  );
  const sync = await ws.kbctx(['sync', 'all']);
  assert.equal(sync.code, 0, sync.stderr);
  session = await openWebSession(ws);
  page = session.page;
});
after(async () => {
  await session?.close();
  ws?.cleanup();
});

/** Waits for the finished search showing `n` results and returns the hits' paths, sorted. */
async function hits(n: number): Promise<string[]> {
  const status = n === 0 ? /No results/ : new RegExp(`^${n} results? for`);
  await page.locator('#search-status').filter({ hasText: status }).waitFor();
  const texts = await page.locator('.result').allTextContents();
  return texts.map((t) => /otter[-\w]*\.(md|ts|py|txt)/.exec(t)?.[0] ?? t).sort();
}

/** Reloads the page from its own URL and checks the field kept its value and the search its results. */
async function survivesReload(label: string, value: string, expected: string[]): Promise<void> {
  const url = page.url();
  await page.goto('about:blank');
  await page.goto(url);
  assert.equal(await page.getByLabel(label, { exact: true }).inputValue(), value);
  assert.deepEqual(await hits(expected.length), expected);
}

it('every document matches without filters', async () => {
  await session.open('#/?q=otter');
  assert.deepEqual(await hits(5), ['otter-infra.md', 'otter-web.md', 'otter.py', 'otter.ts', 'otter.txt']);
});

it('Language narrows to the languages given (comma-separated) and lives in the URL', async () => {
  await session.open('#/?q=otter');
  await hits(5);
  await page.getByLabel('Language', { exact: true }).fill('typescript, python');
  await page.waitForURL(/lang=typescript%2C\+python/);
  assert.deepEqual(await hits(2), ['otter.py', 'otter.ts']);
  await survivesReload('Language', 'typescript, python', ['otter.py', 'otter.ts']);
  await page.getByLabel('Language', { exact: true }).fill('klingon');
  const error = page.getByRole('alert');
  await error.waitFor();
  assert.match((await error.textContent()) ?? '', /^400 .*filters\.lang.*klingon/s);
});

it('Type narrows to the content types given and lives in the URL', async () => {
  await session.open('#/?q=otter');
  await hits(5);
  await page.getByLabel('Type', { exact: true }).fill('markdown');
  await page.waitForURL(/type=markdown/);
  assert.deepEqual(await hits(2), ['otter-infra.md', 'otter-web.md']);
  await survivesReload('Type', 'markdown', ['otter-infra.md', 'otter-web.md']);
  await page.getByLabel('Type', { exact: true }).fill('markdown, plain');
  await page.waitForURL(/type=markdown%2C\+plain/);
  await page
    .locator('#search-status')
    .filter({ hasText: /results for/ })
    .waitFor();
  const both = await page.locator('.result').allTextContents();
  assert.ok(both.length >= 3, both.join('\n'));
  for (const file of ['otter-infra.md', 'otter-web.md', 'otter.txt'])
    assert.ok(
      both.some((t) => t.includes(file)),
      `${file} in ${both.join('\n')}`,
    );
});

it('Meta narrows by front matter key=value pairs (a key twice: any of) and lives in the URL', async () => {
  await session.open('#/?q=otter');
  await hits(5);
  await page.getByLabel('Meta', { exact: true }).fill('team=infra');
  await page.waitForURL(/meta=team%3Dinfra/);
  assert.deepEqual(await hits(1), ['otter-infra.md']);
  await page.getByLabel('Meta', { exact: true }).fill('team=infra, team=web');
  assert.deepEqual(await hits(2), ['otter-infra.md', 'otter-web.md']);
  await page.getByLabel('Meta', { exact: true }).fill('team=infra team=web tier=2');
  assert.deepEqual(await hits(1), ['otter-web.md']);
  await survivesReload('Meta', 'team=infra team=web tier=2', ['otter-web.md']);
  await page.getByLabel('Meta', { exact: true }).fill('team');
  const error = page.getByRole('alert');
  await error.waitFor();
  assert.match((await error.textContent()) ?? '', /^400 .*filters\.meta\.team/s);
});

it('Until narrows to documents updated before it and lives in the URL; a bad date shows the 400', async () => {
  await session.open('#/?q=otter');
  await hits(5);
  await page.getByLabel('Until', { exact: true }).fill('2026-01-01');
  await page.waitForURL(/until=2026-01-01/);
  assert.deepEqual(await hits(2), ['otter-infra.md', 'otter.py']);
  await survivesReload('Until', '2026-01-01', ['otter-infra.md', 'otter.py']);
  await page.getByLabel('Since', { exact: true }).fill('2025-01-01');
  assert.deepEqual(await hits(2), ['otter-infra.md', 'otter.py']);
  await page.getByLabel('Until', { exact: true }).fill('not-a-date');
  const error = page.getByRole('alert');
  await error.waitFor();
  assert.match((await error.textContent()) ?? '', /^400 .*until/);
  assert.equal(session.pageErrors.length, 0, session.pageErrors.join('\n'));
});
