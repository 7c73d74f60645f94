// `kbctx stats` loads the configured plugins like the other commands: the embedder a configured plugin
// provides is the one whose stored vectors are marked current.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { REPO_ROOT, Workspace } from '../helpers/workspace.ts';

let ws: Workspace;
before(() => {
  ws = new Workspace('kbctx-stats-plugins-');
  ws.write('docs/fox.md', '# Fox\n\nThe fox.\n');
  ws.config(
    `plugins = ["bundled", "${REPO_ROOT}test/fixtures/plugins/acme-embedder.mjs"]\n\n[embedding]\nprovider = ` +
      `"openai"\nmodel = "text-embedding-3-small"\ndims = 4\n\n[connectors.filesystem.docs]\nroot = "docs"\n`,
  );
});
after(() => ws.cleanup());

it("marks the configured plugin's embedder's vectors current", async () => {
  const sync = await ws.kbctx(['sync', 'all']);
  assert.equal(sync.code, 0, sync.stderr);
  assert.match(sync.stdout + sync.stderr, /embedded 1 chunk\(s\) with acme:mini/);
  const stats = await ws.kbctx(['stats', '--json']);
  assert.equal(stats.code, 0, stats.stderr);
  assert.deepEqual((JSON.parse(stats.stdout) as { embeddings: unknown[] }).embeddings, [
    { model: 'acme:mini', dims: 4, count: 1, current: true },
  ]);
});
