// How long the web page's Markdown rendering holds the main thread, in a real Chromium: an ordinary
// document, a large ordinary one, and the documents the renderer bounds (issue 21 item 9). Prints
// milliseconds per document and whether it rendered as Markdown or fell back to plain text.
// Run: node bench/web-render-bench.ts. Numbers only, never assertions.
import { readFileSync } from 'node:fs';
import { REPO_ROOT } from '../test/helpers/workspace.ts';
import { createWebWorkspace } from '../test/web/web-fixture.ts';
import { openWebSession } from '../test/web/web-session.ts';

declare const document: { querySelector(selector: string): { getAttribute(name: string): string | null } | null };

const readme = readFileSync(`${REPO_ROOT}/README.md`, 'utf8');
const repeatTo = (unit: string, size: number): string => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
const CASES: Record<string, string> = {
  'README.md': readme,
  'README.md repeated to 500,000 characters': repeatTo(readme, 500_000),
  '10,000-level list': '- '.repeat(10_000) + 'x\n',
  '10,000-level quote': '> '.repeat(10_000) + 'x\n',
  '3,000-level indented list': Array.from({ length: 3_000 }, (_, i) => `${' '.repeat(2 * i)}- level ${i}`).join('\n'),
  '600-level indented list (under the size limit)': Array.from(
    { length: 600 },
    (_, i) => `${' '.repeat(2 * i)}- level ${i}`,
  ).join('\n'),
  '1,000-level list, 5,000 lazy lines': '- '.repeat(1_000) + 'x\n' + 'a lazy line of text\n'.repeat(5_000),
  '5,000-level nested emphasis': '*a '.repeat(5_000) + 'b' + ' a*'.repeat(5_000),
  '20-level lists repeated to 450,000 characters': repeatTo('- '.repeat(20) + 'x\n\n', 450_000),
  '20-level emphasis repeated to 450,000 characters': repeatTo(
    '*a '.repeat(20) + 'b' + ' a*'.repeat(20) + '\n\n',
    450_000,
  ),
};

const ws = await createWebWorkspace();
const session = await openWebSession(ws);
try {
  const { page } = session;
  await session.open('#/sources');
  const main = await page.evaluate(() => document.querySelector('script[type=module]')?.getAttribute('src') ?? '');
  const markdownModule = main.replace(/main\.js$/, 'lib/markdown.js');
  for (const [name, text] of Object.entries(CASES)) {
    const result = await page.evaluate(
      async ([url, body]) => {
        const { renderMarkdown } = await import(url);
        const start = performance.now();
        const out = renderMarkdown(body);
        return { ms: performance.now() - start, as: 'html' in out ? 'Markdown' : `plain text (${out.plainBecause})` };
      },
      [markdownModule, text] as const,
    );
    console.log(`${name} (${text.length.toLocaleString('en')} chars): ${result.ms.toFixed(0)} ms, ${result.as}`);
  }
} finally {
  await session.close();
  ws.cleanup();
}
