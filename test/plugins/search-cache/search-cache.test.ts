// The search-cache plugin through the real composition (ADR 0251): a real `kbctx serve mcp` on 127.0.0.1:0 answers a
// repeated REST search from the cache (a keyed `rank` tap runs once) until another process writes the index; dropped
// ("!search-cache"), every search runs the store and the taps again; `kbctx plugins` names the service's provider.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { spawnServer, type KbctxServer } from '../../helpers/kbctx-server.ts';
import { runKbctx, Workspace } from '../../helpers/workspace.ts';

const TOKEN = 'search-cache-test-token';
const AUTH = { authorization: `Bearer ${TOKEN}` };
// Stamps each page with how many times the tap ran, so a cached page shows an older count.
const STAMP = `let calls = 0;
export default { name: 'stamp', version: '1.0.0', kbctx: '^0.2', apply(kernel) {
  kernel.hooks.rank.tap({ name: 'stamp', cacheKey: () => 'v1' }, (hits) => {
    calls++;
    return hits.map((hit) => ({ ...hit, title: hit.title + ' #' + calls }));
  });
} };
`;
const config = (drop: string) =>
  `plugins = ["bundled", "!live-index", ${drop}"./stamp.mjs"]\n[db]\npath = "data/kb.sqlite"\n` +
  `[connectors.filesystem.kb]\nroot = "kb"\n[server]\nauth_token_env = "KBCTX_TEST_TOKEN"\n`;

let ws: Workspace;
const cli = (file: string, args: string[]) => runKbctx(['-c', file, ...args], { cwd: ws.dir });
const serve = (file: string): Promise<KbctxServer> =>
  spawnServer(
    ws,
    ['-c', file, 'serve', 'mcp', '--bind', '127.0.0.1:0'],
    { KBCTX_TEST_TOKEN: TOKEN },
    /Listening on (http:\/\/\S+)\n/,
  );

async function titles(url: string, query: string): Promise<string[]> {
  const res = await fetch(`${url}/tools/search`, {
    method: 'POST',
    headers: { ...AUTH, 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  assert.equal(res.status, 200, await res.clone().text());
  return ((await res.json()) as { results: { title: string }[] }).results.map((r) => r.title).sort();
}

before(async () => {
  ws = new Workspace('kbctx-search-cache-');
  ws.write('kb/otters.md', '# Otters\n\nOtters hold hands while they sleep.\n');
  ws.write('stamp.mjs', STAMP);
  ws.write('with.toml', config(''));
  ws.write('without.toml', config('"!search-cache", '));
  const sync = await cli('with.toml', ['sync', 'all']);
  assert.equal(sync.code, 0, sync.stderr);
});
after(() => ws.cleanup());

it('a repeated search is answered from the cache until another process writes the index', async () => {
  const s = await serve('with.toml');
  try {
    assert.deepEqual(await titles(s.url, 'otters'), ['Otters #1']);
    assert.deepEqual(await titles(s.url, 'otters'), ['Otters #1'], 'the cached page: the tap did not run again');
    ws.write('kb/sea-otters.md', '# Sea otters\n\nSea otters float on their backs.\n');
    const sync = await cli('with.toml', ['sync', 'all']);
    assert.equal(sync.code, 0, sync.stderr);
    assert.deepEqual(await titles(s.url, 'otters'), ['Otters #2', 'Sea otters #2'], 'stale after the write');
  } finally {
    assert.equal(await s.stop(), 0);
  }
});

it('"!search-cache": every search runs the store and the rank taps again', async () => {
  const s = await serve('without.toml');
  try {
    assert.deepEqual(await titles(s.url, 'sleep'), ['Otters #1']);
    assert.deepEqual(await titles(s.url, 'sleep'), ['Otters #2']);
  } finally {
    assert.equal(await s.stop(), 0);
  }
});

it('kbctx plugins lists search-cache providing the kbctx.search-cache service', async () => {
  const plugins = await cli('with.toml', ['plugins']);
  assert.equal(plugins.code, 0, plugins.stderr);
  assert.match(plugins.stdout, /search-cache\b.*service:kbctx\.search-cache/);
});
