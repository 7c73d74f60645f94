// `kbctx sync` progress through the real CLI (issue 21, item 16): with a non-terminal stderr a plain line
// every KBCTX_PROGRESS_INTERVAL_MS (5 s by default) while the sync runs, before the summary, as export
// does; --json keeps stderr free of them.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Workspace } from '../helpers/workspace.ts';

let ws: Workspace;
before(() => {
  ws = new Workspace('kbctx-sync-progress-');
  for (let i = 0; i < 300; i++)
    ws.write(`docs/d${i}.md`, `# Doc ${i}\n\nHerons, kingfishers and write-ahead logs, note ${i}.\n`);
  ws.config('[connectors.filesystem.docs]\nroot = "docs"\n');
});
after(() => ws.cleanup());

it('a non-terminal stderr gets plain progress lines while a sync runs, before the summary', async () => {
  const r = await ws.kbctx(['sync', 'all', '--full'], { env: { KBCTX_PROGRESS_INTERVAL_MS: '1' } });
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stderr
    .trimEnd()
    .split('\n')
    .filter((l) => l.startsWith('sync: '));
  assert.ok(
    lines.some((l) => /^sync: filesystem:docs \d+\/300 \(\d+%\) {2}[\d.]+\/s {2}ETA (\d+s|\d+m\d\ds|\?)$/.test(l)),
    r.stderr,
  );
  assert.ok(!r.stderr.includes('\x1b'), 'no terminal escapes');
  assert.match(r.stdout, /^filesystem:docs: fetched 300, upserted 300, /);
});

it('--json prints no progress lines', async () => {
  const r = await ws.kbctx(['sync', 'all', '--full', '--json'], { env: { KBCTX_PROGRESS_INTERVAL_MS: '1' } });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '');
});
