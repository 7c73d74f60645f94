// Line ranges end to end (ADR 0210): a hit's `path:start-end` over the CLI, REST and MCP (structuredContent and the
// text), `get` with `lines` on all three (a bad range is a 400 / -32602 / exit 2 naming `lines`), and an index made
// by the schema before lines: it opens (lines unknown), and the next plain sync gives its chunks their lines while
// keeping them (no chunk rewritten).
import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { Workspace } from '../helpers/workspace.ts';

// Lines 1-3 front matter, the one chunk spans lines 4-9 of the file.
const GUIDE = '---\ntitle: Guide\n---\n# Guide\n\nIntro words.\n\nThe zebra crossing rule applies here.\nLast line.\n';

describe('line ranges over the CLI, REST and MCP', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('', { files: { 'docs/guide.md': GUIDE } });
  });
  after(() => server.close());

  it('CLI: `path:4-9` after the title, line_start/line_end in --json; get --lines', async () => {
    const text = await server.ws.kbctx(['search', 'zebra']);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^1\. Guide {2}\/\S*\/docs\/guide\.md:4-9 {2}\[/m);
    const json = await server.ws.kbctx(['search', 'zebra', '--json']);
    const hit = (JSON.parse(json.stdout) as { results: Record<string, unknown>[] }).results[0]!;
    assert.deepEqual([hit['line_start'], hit['line_end'], hit['symbol'], hit['lang']], [4, 9, null, null]);
    const get = await server.ws.kbctx(['get', hit['id'] as string, '--lines', '8-9']);
    assert.equal(get.code, 0, get.stderr);
    const doc = JSON.parse(get.stdout) as Record<string, unknown>;
    assert.deepEqual(
      [doc['body'], doc['line_start'], doc['line_end']],
      ['The zebra crossing rule applies here.\nLast line.', 8, 9],
    );
    const bad = await server.ws.kbctx(['get', hit['id'] as string, '--lines', '9-3']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /lines/);
  });

  it(
    'REST: hits carry the lines; POST /tools/get with `lines` ' + '(body or ?lines=); a bad range is a 400 naming it',
    async () => {
      const post = (url: string, body: unknown): Promise<Response> =>
        fetch(`${server.url}${url}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const hit = (
        (await (await post('/tools/search', { query: 'zebra' })).json()) as { results: Record<string, unknown>[] }
      ).results[0]!;
      assert.deepEqual([hit['line_start'], hit['line_end']], [4, 9]);
      const byQuery = (await (await post('/tools/get?lines=8', { id: hit['id'] })).json()) as Record<string, unknown>;
      assert.deepEqual(
        [byQuery['body'], byQuery['line_start'], byQuery['line_end']],
        ['The zebra crossing rule applies here.', 8, 8],
      );
      const byBody = (await (await post('/tools/get', { id: hit['id'], lines: '6-99' })).json()) as Record<
        string,
        unknown
      >;
      assert.deepEqual([byBody['line_start'], byBody['line_end']], [6, 10]);
      for (const lines of ['0-2', 'x', '50-60']) {
        const r = await post('/tools/get', { id: hit['id'], lines });
        assert.equal(r.status, 400, lines);
        const error = (
          (await r.json()) as { error: { code: string; message: string; details?: { parameter?: string } } }
        ).error;
        assert.equal(error.code, 'bad_request');
        assert.match(error.message, /'lines'/);
      }
    },
  );

  it(
    'MCP: structuredContent and the text carry the lines; ' + 'the get tool takes `lines`; a bad one is -32602',
    async () => {
      const client = new Client({ name: 'lines-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
      try {
        const result = await client.callTool({ name: 'search', arguments: { query: 'zebra' } });
        const hit = (result.structuredContent as { results: Record<string, unknown>[] }).results[0]!;
        assert.deepEqual([hit['line_start'], hit['line_end']], [4, 9]);
        assert.match(JSON.stringify(result.content), /\\"line_start\\":4,\\"line_end\\":9/);
        const got = await client.callTool({ name: 'get', arguments: { id: hit['id'], lines: '8-8' } });
        assert.equal((got.structuredContent as { body: string }).body, 'The zebra crossing rule applies here.');
        const bad = await client.callTool({ name: 'get', arguments: { id: hit['id'], lines: '3-1' } }).then(
          (r) => ({
            text: JSON.stringify(r.content),
            isError: r.isError === true,
            code: undefined as number | undefined,
          }),
          (error: { code?: number; message: string }) => ({ text: error.message, isError: true, code: error.code }),
        );
        assert.equal(bad.isError, true);
        if (bad.code !== undefined) assert.equal(bad.code, -32602);
        assert.match(bad.text, /lines/);
      } finally {
        await client.close();
      }
    },
  );
});

describe('an index from before chunks had lines', () => {
  it('opens with unknown lines; the next plain sync fills them in and keeps every chunk', async () => {
    const ws = new Workspace('kbctx-lines-migrate-');
    try {
      ws.write('docs/guide.md', GUIDE);
      ws.write('docs/tea.txt', 'Green tea.\n\nBrewed at 80 degrees.\n');
      ws.config('[db]\npath = "data/index.sqlite"\n[connectors.filesystem.docs]\nroot = "docs"\n');
      assert.equal((await ws.syncJson('all')).code, 0);
      // Back to schema 5 as an older kbctx left it: no line, symbol or language columns.
      const file = path.join(ws.dir, 'data/index.sqlite');
      const db = new DatabaseSync(file);
      const chunksBefore = db.prepare('SELECT rowid, id FROM chunks ORDER BY rowid').all();
      for (const column of ['line_start', 'line_end', 'symbol', 'lang'])
        db.exec(`ALTER TABLE chunks DROP COLUMN ${column}`);
      db.exec('PRAGMA user_version = 5');
      db.close();

      const before = await ws.kbctx(['search', 'zebra', '--json']);
      assert.equal(before.code, 0, before.stderr);
      const hit = (JSON.parse(before.stdout) as { results: Record<string, unknown>[] }).results[0]!;
      assert.deepEqual([hit['title'], hit['line_start'], hit['line_end']], ['Guide', null, null]);

      const sync = await ws.syncJson('all');
      assert.equal(sync.code, 0, sync.stderr);
      assert.deepEqual(
        sync.reports.map((r) => [r.upserted, r.chunks_written, r.deleted]),
        [[2, 0, 0]],
        'every document re-read, no chunk rewritten',
      );
      const after = await ws.kbctx(['search', 'zebra']);
      assert.match(after.stdout, /docs\/guide\.md:4-9/);
      const check = new DatabaseSync(file);
      assert.deepEqual(check.prepare('SELECT rowid, id FROM chunks ORDER BY rowid').all(), chunksBefore, 'same rows');
      assert.equal(
        (check.prepare('SELECT count(*) AS n FROM chunks WHERE line_start IS NULL').get() as { n: number }).n,
        0,
      );
      check.close();
    } finally {
      ws.cleanup();
    }
  });
});
