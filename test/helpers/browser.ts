// A real browser for the web page tests: Debian's chromium driven by playwright-core, headless, with a
// fresh profile. Missing chromium is a failure that says how to install it, never a silent skip.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM = process.env['KBCTX_CHROMIUM'] ?? '/usr/bin/chromium';

export interface TestBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `the web page tests need Chromium at ${CHROMIUM}: install it with \`apt-get install -y chromium\` ` +
        `(Debian/Ubuntu), or set KBCTX_CHROMIUM to a Chromium binary`,
    );
  }
  const profile = mkdtempSync(path.join(tmpdir(), 'kbctx-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1280, height: 800 },
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
