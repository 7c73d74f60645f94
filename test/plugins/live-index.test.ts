// The live-index plugin over a real `kbctx serve mcp`: loaded (the default), the server syncs at start
// and serves /sync; dropped (`"!live-index"`), it serves the index as it is: no start-up sync, no
// watching, no schedules, no /sync routes, and the banner says so.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { spawnServer } from '../helpers/kbctx-server.ts';
import { Workspace } from '../helpers/workspace.ts';

const LISTENING = /Listening on (http:\/\/\S+)\n/;
const CONFIG = '[connectors.filesystem.docs]\nroot = "docs"\n\n[sync]\ninterval = "1s"\n';

let ws: Workspace;
before(() => {
  ws = new Workspace('kbctx-live-plugin-');
  ws.write('docs/fox.md', '# Foxes\n\nThe quick brown fox lives in a den.\n');
  ws.write('with.toml', CONFIG);
  ws.write('without.toml', `plugins = ["bundled", "!live-index"]\n${CONFIG}`);
});
after(() => ws.cleanup());

const hits = async (url: string): Promise<number> => {
  const res = await fetch(`${url}/tools/search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"query":"fox"}',
  });
  return ((await res.json()) as { results: unknown[] }).results.length;
};

it(
  '"!live-index": no start-up sync, schedule or watching, /sync ' + 'is 404, and the banner says the live index is off',
  async () => {
    const s = await spawnServer(ws, ['-c', 'without.toml', 'serve', 'mcp', '--bind', '127.0.0.1:0'], {}, LISTENING);
    try {
      assert.match(s.stdout, /live index: off \(the live-index plugin is not loaded\)/);
      assert.equal((await fetch(`${s.url}/sync/status`)).status, 404);
      assert.equal((await fetch(`${s.url}/sync/filesystem:docs`, { method: 'POST' })).status, 404);
      await sleep(2_500); // more than the 1 s schedule
      assert.equal(await hits(s.url), 0);
      assert.doesNotMatch(s.stderr(), /sync filesystem:docs|watching/);
    } finally {
      assert.equal(await s.stop(), 0);
    }
  },
);

it('loaded (the default): the server syncs at start, watches and serves /sync; no "off" line', async () => {
  const s = await spawnServer(ws, ['-c', 'with.toml', 'serve', 'mcp', '--bind', '127.0.0.1:0'], {}, LISTENING);
  try {
    assert.doesNotMatch(s.stdout, /live index: off/);
    const status = (await (await fetch(`${s.url}/sync/status`)).json()) as { connectors: { connector: string }[] };
    assert.deepEqual(
      status.connectors.map((c) => c.connector),
      ['filesystem:docs'],
    );
    for (let i = 0; i < 100 && (await hits(s.url)) === 0; i++) await sleep(100);
    assert.equal(await hits(s.url), 1);
    assert.match(s.stderr(), /watching filesystem:docs/);
  } finally {
    assert.equal(await s.stop(), 0);
  }
});
