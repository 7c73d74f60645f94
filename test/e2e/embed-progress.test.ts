// `kbctx embed pending` with stderr redirected (issue 31): plain progress lines print while the bundled
// local model works, not only once it is done. The model computed on the event loop, so the progress
// timer never fired during an embed (none in a 160 s run); it runs in a worker thread now, and a line
// showing a part done (0 < done < total) can only be printed between batches while the next computes.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Workspace } from '../helpers/workspace.ts';

const DOCS = 24;
let ws: Workspace;
before(async () => {
  ws = new Workspace('kbctx-embed-progress-');
  for (let i = 0; i < DOCS; i++)
    ws.write(
      `docs/d${i}.md`,
      `# Note ${i}\n\nHerons, kingfishers and write-ahead logs: note number ${i} of the progress test.\n`,
    );
  ws.config('[connectors.filesystem.docs]\nroot = "docs"\n');
  const sync = await ws.kbctx(['sync', 'all']); // no embedder yet: every chunk stays pending
  assert.equal(sync.code, 0, sync.stderr);
  ws.config('[embedding]\nprovider = "local"\nbatch_size = 4\n\n[connectors.filesystem.docs]\nroot = "docs"\n');
});
after(() => ws.cleanup());

it('prints plain progress lines while the local model embeds, with output redirected', async () => {
  const r = await ws.kbctx(['embed', 'pending'], { env: { KBCTX_PROGRESS_INTERVAL_MS: '5' } });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`^embedded ${DOCS} of ${DOCS} pending chunk\\(s\\) with local:use-lite`));
  const lines = r.stderr.split('\n').filter((l) => l.startsWith('embed: '));
  for (const l of lines)
    assert.match(l, new RegExp(`^embed: \\d+/${DOCS} {2}[\\d.]+/s {2}ETA (\\d+s|\\d+m\\d\\ds|\\?)$`));
  const midway = lines.filter((l) => {
    const done = Number(/^embed: (\d+)\//.exec(l)![1]);
    return done > 0 && done < DOCS;
  });
  assert.ok(midway.length > 0, `a line while the embed was under way:\n${r.stderr}`);
  assert.ok(!r.stderr.includes('\x1b'), 'no terminal escapes');
});
