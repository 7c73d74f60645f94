// mcp-server's document pages (MCP `resources/list`) over a real synced index.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { KbctxError } from '../../../core/domain/errors.ts';
import { listDocumentPage } from '../../../plugins/mcp-server/document-pages.ts';
import { IndexFixture } from '../../helpers/index-fixture.ts';

const fx = new IndexFixture();
before(async () => {
  for (let i = 0; i < 5; i++) fx.ws.write(`docs/d${i}.md`, `# Doc ${i}\n\nText ${i}.`);
  await fx.sync();
});
after(() => fx.close());

describe('listDocumentPage', () => {
  it('pages through every document once, in a stable order', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await listDocumentPage(fx.kbctx.store, cursor, 2);
      seen.push(...page.documents.map((d) => d.sourceId));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== undefined && pages < 10);
    assert.deepEqual([...seen].sort(), ['d0.md', 'd1.md', 'd2.md', 'd3.md', 'd4.md']);
    assert.equal(new Set(seen).size, 5);
    assert.ok(pages >= 3);
  });

  it('rejects a cursor it did not issue', async () => {
    await assert.rejects(
      listDocumentPage(fx.kbctx.store, 'not-a-cursor!'),
      (e: unknown) => e instanceof KbctxError && e.code === 'bad_request' && /invalid cursor/.test(e.message),
    );
  });
});
