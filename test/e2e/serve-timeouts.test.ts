// `kbctx serve mcp` as real processes, one and `--workers 2`, honour the [server] time-outs (issue 29
// item 1): a trickled body is cut at request_timeout_secs and an idle keep-alive connection closed at
// keep_alive_timeout_secs, whichever process accepted the connection.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { spawnServer } from '../helpers/kbctx-server.ts';
import { oneRequestThenIdle, trickleBody, untilServerCloses } from '../helpers/raw-socket.ts';
import { Workspace } from '../helpers/workspace.ts';

const BOUND_MS = 4_500; // the 1 s limits plus Node's 1 s check, far below its defaults (300 s, 5 s + 1 s)
let ws: Workspace;
before(() => {
  ws = new Workspace('kbctx-serve-timeouts-');
  ws.write('docs/a.md', '# Alpha\n\nA note.\n');
  ws.config(
    '[connectors.filesystem.docs]\nroot = "docs"\n\n[server]\nheaders_timeout_secs = 1\nrequest_timeout_secs = ' +
      '1\nkeep_alive_timeout_secs = 1\n',
  );
});
after(() => ws.cleanup());

for (const args of [[], ['--workers', '2']]) {
  it(
    `serve mcp ${args.join(' ') || '(one process)'} cuts a ` + `trickled body and closes an idle keep-alive connection`,
    async () => {
      const s = await spawnServer(ws, ['serve', 'mcp', '--bind', '127.0.0.1:0', '--no-watch', ...args]);
      try {
        const port = Number(new URL(s.url).port);
        // Twice each: with workers, connections are spread over the processes.
        const closed = await Promise.all(
          [trickleBody, trickleBody, oneRequestThenIdle, oneRequestThenIdle].map((use) =>
            untilServerCloses(port, use, BOUND_MS),
          ),
        );
        for (const c of closed.slice(0, 2)) assert.match(c.received, /^HTTP\/1\.1 408 /);
        for (const c of closed.slice(2)) assert.match(c.received, /^HTTP\/1\.1 200 [\s\S]*keep-alive: timeout=1\r/i);
      } finally {
        s.child.kill('SIGTERM');
        assert.equal(await s.exit, 0);
      }
    },
  );
}
