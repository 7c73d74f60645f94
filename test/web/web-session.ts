// One browser page against a real `kbctx serve` on a workspace, for the web page tests: the server and
// Chromium started together, the page's script errors collected, and `open` for a fresh load.
import type { Page } from 'playwright-core';
import { launchBrowser, type TestBrowser } from '../helpers/browser.ts';
import { spawnServer, type KbctxServer } from '../helpers/kbctx-server.ts';
import type { Workspace } from '../helpers/workspace.ts';

export interface WebSession {
  server: KbctxServer;
  browser: TestBrowser;
  page: Page;
  /** Script errors the page raised, in order. */
  pageErrors: string[];
  /** A fresh load of the page at `hash` (going through about:blank, so a hash-only change still reloads). */
  open(hash: string): Promise<void>;
  close(): Promise<void>;
}

export async function openWebSession(ws: Workspace): Promise<WebSession> {
  const [server, browser] = await Promise.all([
    spawnServer(ws, ['serve', 'mcp', '--bind', '127.0.0.1:0']),
    launchBrowser(),
  ]);
  const page = await browser.context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  return {
    server,
    browser,
    page,
    pageErrors,
    async open(hash) {
      await page.goto('about:blank');
      await page.goto(`${server.url}/${hash}`);
    },
    async close() {
      await browser.close();
      await server.stop();
    },
  };
}
