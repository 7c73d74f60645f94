// The `rank` hook sees the candidate list, not only the final page (issue 29): the boost example of
// docs/plugins.md (examples/plugins/redact.lua) lifts a document the engine ranks below `limit` into
// the page, on the CLI and over REST, where the search cache and `explain` stay right.
import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { spawnServer, type KbctxServer } from '../../helpers/kbctx-server.ts';
import { REPO_ROOT, runKbctx, Workspace } from '../../helpers/workspace.ts';

const SECTIONS = '[db]\npath = "data/kb.sqlite"\n\n[connectors.filesystem.docs]\nroot = "docs"\n';
const ROTATE = 'Rotate keys often. Rotate keys after a leak. Rotate keys, then rotate keys again.';

let ws: Workspace;
const cli = (config: string, args: string[]) => runKbctx(['-c', config, ...args], { cwd: ws.dir });
const titles = (body: string): string[] =>
  (JSON.parse(body) as { results: { title: string }[] }).results.map((r) => r.title);

before(async () => {
  ws = new Workspace();
  // Eight documents that say "rotate keys" many times; the boosted one says it once, so it ranks last.
  for (let i = 1; i <= 8; i++) ws.write(`docs/rotate-${i}.md`, `# Rotating keys ${i}\n\n${ROTATE.repeat(9 - i)}`);
  ws.write(
    'docs/urgent.md',
    '# Urgent: rotate keys\n\nOnce a year, and other words that dilute the match: vault, policy, audit, owner.',
  );
  copyFileSync(`${REPO_ROOT}examples/plugins/redact.lua`, ws.path('redact.lua'));
  ws.write('kbctx.toml', `plugins = ["bundled", "./redact.lua"]\n${SECTIONS}`);
  ws.write('plain.toml', SECTIONS);
  const sync = await cli('kbctx.toml', ['sync', 'all']);
  assert.equal(sync.code, 0, sync.stderr);
});
after(() => ws.cleanup());

describe('the rank hook and the page limit', () => {
  it('CLI: the docs boost example lifts a document ranked below --limit into the page', async () => {
    const plain = await cli('plain.toml', ['search', 'rotate keys', '--limit', '20', '--json']);
    assert.equal(plain.code, 0, plain.stderr);
    const order = titles(plain.stdout);
    assert.equal(order.at(-1), 'Urgent: rotate keys', 'the engine ranks the boosted document last');
    assert.ok(order.indexOf('Urgent: rotate keys') >= 3);
    const ranked = await cli('kbctx.toml', ['search', 'rotate keys', '--limit', '3', '--json']);
    assert.equal(ranked.code, 0, ranked.stderr);
    assert.deepEqual(titles(ranked.stdout), ['Urgent: rotate keys', order[0], order[1]]);
  });

  describe('over REST, with the search cache', () => {
    let server: KbctxServer;
    before(
      async () =>
        (server = await spawnServer(ws, ['-c', 'kbctx.toml', 'serve', 'mcp', '--bind', '127.0.0.1:0', '--no-watch'])),
    );
    after(async () => server.stop());

    const search = async (body: Record<string, unknown>) => {
      const res = await fetch(`${server.url}/tools/search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'rotate keys', ...body }),
      });
      assert.equal(res.status, 200);
      return ((await res.json()) as { results: { title: string; explain?: { keyword_score: number } }[] }).results;
    };

    it(
      'pages of different limits, asked twice (cached), are ' + 'each cut after ranking; explain stays per hit',
      async () => {
        for (let round = 0; round < 2; round++) {
          const three = await search({ limit: 3, explain: true });
          assert.equal(three.length, 3);
          assert.equal(three[0]!.title, 'Urgent: rotate keys');
          for (const hit of three) assert.equal(typeof hit.explain?.keyword_score, 'number', JSON.stringify(hit));
          const one = await search({ limit: 1 });
          assert.deepEqual(
            one.map((h) => h.title),
            ['Urgent: rotate keys'],
          );
          assert.equal(one[0]!.explain, undefined);
        }
      },
    );
  });
});
