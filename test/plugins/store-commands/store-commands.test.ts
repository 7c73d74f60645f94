// The store-commands plugin owns `kbctx stats`, `export` and `migrate`: they run through its `commands`
// tap, and dropping it ("!store-commands") removes them (and help lists none).
import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { Workspace } from '../../helpers/workspace.ts';

const spaces: Workspace[] = [];
after(() => spaces.forEach((ws) => ws.cleanup()));

function workspace(plugins: string): Workspace {
  const ws = new Workspace();
  spaces.push(ws);
  ws.write('kb/otters.md', '# Otters\n\nOtters hold hands while they sleep.\n');
  ws.config(`plugins = ${plugins}\n[db]\npath = "index.sqlite"\n[connectors.filesystem.kb]\nroot = "kb"\n`);
  return ws;
}

it("stats, export and migrate are store-commands' commands", async () => {
  const ws = workspace('["bundled"]');
  assert.equal((await ws.kbctx(['sync', 'all'])).code, 0);
  assert.equal(JSON.parse((await ws.kbctx(['stats', '--json'])).stdout).documents, 1);
  assert.equal(JSON.parse((await ws.kbctx(['export'])).stdout).documents.length, 1);
  const migrated = await ws.kbctx(['migrate', '--to', 'copy.sqlite', '--json']);
  assert.equal(migrated.code, 0, migrated.stderr);
  const listed = JSON.parse((await ws.kbctx(['plugins', '--json'])).stdout) as {
    plugins: { name: string; hooks: string[] }[];
  };
  assert.deepEqual(listed.plugins.find((p) => p.name === 'store-commands')?.hooks, ['commands']);
});

it('"!store-commands": no stats, export or migrate command', async () => {
  const ws = workspace('["bundled", "!store-commands"]');
  assert.equal((await ws.kbctx(['sync', 'all'])).code, 0);
  for (const name of ['stats', 'export', 'migrate']) {
    const r = await ws.kbctx([name]);
    assert.equal(r.code, 2, `${name}: ${r.stderr}`);
    assert.match(r.stderr, new RegExp(`unknown command '${name}'`));
  }
  const help = await ws.kbctx(['--help']);
  assert.doesNotMatch(help.stdout, /^ {2}(stats|export|migrate)\b/m);
  assert.match(help.stdout, /^ {2}search\b/m, 'guards the pattern');
});
