// Taps are checked and errors name the item (issue 30), through the real CLI with plugin files in a
// temp project: a tap returning the wrong shape names plugin, hook, what it got and what was expected
// (never "a bug in kbctx", never a misleading config error); a throwing `document` or `chunk` tap fails
// that document only, named in the sync report, with the plugin's stack under KBCTX_DEBUG=1; a
// misspelt hook is refused at `apply` with the nearest name.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Workspace, type SyncReportJson } from '../helpers/workspace.ts';
import { joinedRegExp } from '../helpers/joined-regexp.ts';

const PLUGINS: Record<string, string> = {
  'rank-strings': "kernel.hooks.rank.tap('rank-strings', (hits) => hits.map((h) => h.id));",
  'query-string': "kernel.hooks.query.tap('query-string', (request) => request.query);",
  'query-throws':
    "kernel.hooks.query.tapPromise('query-throws', async () => { throw new Error('no queries today'); });",
  'document-throws':
    "kernel.hooks.document.tapPromise('document-throws', async (draft) => { if (draft.sourceId === 'b.md') throw " +
    "new Error('cannot redact b'); return draft; });",
  'chunk-throws':
    "kernel.hooks.chunk.tap({ name: 'chunk-throws', stage: -10 }, (request) => { if (request.document.sourceId " +
    "=== 'b.md') throw new Error('cannot split b'); return undefined; });",
  'chunk-number': "kernel.hooks.chunk.tap({ name: 'chunk-number', stage: -10 }, () => [42]);",
  'hook-typo': "kernel.hooks.documnet.tap('hook-typo', (draft) => draft);",
};
const pluginFile = (name: string, body: string) => `export default {
  name: '${name}', version: '1.0.0', kbctx: '^0.2',
  apply(kernel) {
    ${body}
  },
};
`;
const SECTIONS = '[db]\npath = "data/kb.sqlite"\n\n[connectors.filesystem.docs]\nroot = "docs"\n';

let ws: Workspace;
const withPlugin = (name: string, args: string[], env: NodeJS.ProcessEnv = {}) => {
  ws.write(
    `${name}.toml`,
    `plugins = ["bundled", "./plugins/${name}.mjs"]\n\n${SECTIONS.replace('kb.sqlite', `${name}.sqlite`)}`,
  );
  return ws.kbctx(['-c', `${name}.toml`, ...args], { env: { ...process.env, KBCTX_DEBUG: '', ...env } });
};

before(async () => {
  ws = new Workspace();
  ws.write('docs/a.md', '# Alpha\n\nhello world from a\n');
  ws.write('docs/b.md', '# Beta\n\nhello world from b\n');
  ws.write('docs/c.md', '# Gamma\n\nhello world from c\n');
  for (const [name, body] of Object.entries(PLUGINS)) ws.write(`plugins/${name}.mjs`, pluginFile(name, body));
  // The search cases share one index, synced without plugins.
  for (const name of ['rank-strings', 'query-string', 'query-throws']) {
    ws.write(`${name}-plain.toml`, SECTIONS.replace('kb.sqlite', `${name}.sqlite`));
    const sync = await ws.kbctx(['-c', `${name}-plain.toml`, 'sync', 'all']);
    assert.equal(sync.code, 0, sync.stderr);
  }
});
after(() => ws.cleanup());

describe('a tap returning the wrong shape', () => {
  it('a rank tap returning ids: exit 1 naming plugin, hook, what it returned and what rank expects', async () => {
    const r = await withPlugin('rank-strings', ['search', 'hello']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(
      r.stderr,
      joinedRegExp(
        /^error: plugin 'rank-strings' returned a list whose item 0 is a string \("[^"]+"\) from hook rank: /,
        /expected a list of hits \(objects with a string id and a number score, as received\), or undefined to /,
        /keep them \(on query "hello"\)\n$/,
      ),
    );
    assert.doesNotMatch(r.stderr, /internal error|bug in kbctx/);
  });

  it('a query tap returning a string: exit 1 naming it, not "search needs embeddings"', async () => {
    const r = await withPlugin('query-string', ['search', 'hello']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(
      r.stderr,
      joinedRegExp(
        /^error: plugin 'query-string' returned a string \("hello"\) from hook query: expected a search request /,
        /\(an object with a string query, a mode of keyword, semantic or hybrid and a number limit\), or /,
        /undefined to keep it \(on query "hello"\)\n$/,
      ),
    );
    assert.doesNotMatch(r.stderr, /embeddings/);
  });

  it('a chunk tap returning numbers fails that document, naming what it returned', async () => {
    const r = await withPlugin('chunk-number', ['sync', 'all', '--json']);
    assert.equal(r.code, 1, r.stderr);
    const [report] = (JSON.parse(r.stdout) as { connectors: SyncReportJson[] }).connectors;
    assert.equal(report!.failure, null);
    assert.equal(report!.errors, 3);
    assert.ok(
      report!.notes.includes(
        "error a.md: plugin 'chunk-number' returned a list whose item 0 is a number (42) from hook chunk: " +
          "expected a list of strings (the chunks' texts) or of chunk pieces (objects with a string text and " +
          'whole-number lineStart ≤ lineEnd from 1), or undefined to leave the document to the next tap',
      ),
      report!.notes.join('\n'),
    );
  });
});

describe('a throwing tap names the item', () => {
  it('a document tap throwing on one document fails that document only; the others are indexed', async () => {
    const r = await withPlugin('document-throws', ['sync', 'all', '--json']);
    assert.equal(r.code, 1, r.stderr);
    const [report] = (JSON.parse(r.stdout) as { connectors: SyncReportJson[] }).connectors;
    assert.equal(report!.failure, null);
    assert.deepEqual({ upserted: report!.upserted, errors: report!.errors }, { upserted: 2, errors: 1 });
    assert.deepEqual(report!.notes, ["error b.md: plugin 'document-throws' failed in hook document: cannot redact b"]);
    assert.doesNotMatch(r.stderr, /at .*document-throws\.mjs/); // no stack without KBCTX_DEBUG
    const found = await withPlugin('document-throws', ['search', 'hello', '--json']);
    assert.deepEqual(
      (JSON.parse(found.stdout) as { results: { title: string }[] }).results.map((x) => x.title).sort(),
      ['Alpha', 'Gamma'],
    );
  });

  it("the sync summary names the document; KBCTX_DEBUG=1 adds the plugin's stack", async () => {
    const plain = await withPlugin('document-throws', ['sync', 'all', '--full']);
    assert.equal(plain.code, 1, plain.stderr);
    assert.match(plain.stderr, / {2}error b\.md: plugin 'document-throws' failed in hook document: cannot redact b\n/);
    assert.doesNotMatch(plain.stderr, /document-throws\.mjs:\d+/);
    const debug = await withPlugin('document-throws', ['sync', 'all', '--full'], { KBCTX_DEBUG: '1' });
    assert.equal(debug.code, 1, debug.stderr);
    assert.match(debug.stderr, /b\.md: Error: cannot redact b\n\s+at .*plugins\/document-throws\.mjs:\d+/);
  });

  it('a chunk tap throwing on one document fails that document only', async () => {
    const r = await withPlugin('chunk-throws', ['sync', 'all', '--json']);
    assert.equal(r.code, 1, r.stderr);
    const [report] = (JSON.parse(r.stdout) as { connectors: SyncReportJson[] }).connectors;
    assert.equal(report!.failure, null);
    assert.deepEqual(
      { upserted: report!.upserted, errors: report!.errors, notes: report!.notes },
      { upserted: 2, errors: 1, notes: ["error b.md: plugin 'chunk-throws' failed in hook chunk: cannot split b"] },
    );
  });

  it("a query tap throwing: the error names the query; KBCTX_DEBUG=1 prints the plugin's stack", async () => {
    const plain = await withPlugin('query-throws', ['search', 'hello']);
    assert.equal(plain.code, 1, plain.stderr);
    assert.equal(
      plain.stderr,
      'error: plugin \'query-throws\' failed in hook query: no queries today (on query "hello")\n',
    );
    const debug = await withPlugin('query-throws', ['search', 'hello'], { KBCTX_DEBUG: '1' });
    assert.equal(debug.code, 1, debug.stderr);
    assert.match(
      debug.stderr,
      joinedRegExp(
        /^error: plugin 'query-throws' failed in hook query: no queries today \(on query /,
        /"hello"\)\nError: no queries today\n\s+at .*plugins\/query-throws\.mjs:\d+/,
      ),
    );
  });
});

describe('a misspelt hook', () => {
  it('is refused at apply with the nearest hook name (exit 3)', async () => {
    const r = await withPlugin('hook-typo', ['search', 'hello']);
    assert.equal(r.code, 3, r.stderr);
    assert.match(
      r.stderr,
      joinedRegExp(
        /^error: plugin 'hook-typo': apply failed: unknown hook /,
        /'documnet'; did you mean 'document'\? \(hooks: boot, ready, /,
      ),
    );
    assert.doesNotMatch(r.stderr, /Cannot read properties of undefined/);
  });
});
