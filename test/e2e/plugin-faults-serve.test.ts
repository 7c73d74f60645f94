// A plugin whose own timer throws and whose floating promise rejects, outside any hook, in a real
// `kbctx serve mcp` (issue 29 item 4, ADR 0142): each fault is logged naming the plugin, and the server
// keeps answering.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { spawnServer, type KbctxServer } from '../helpers/kbctx-server.ts';
import { Workspace } from '../helpers/workspace.ts';
import { joinedRegExp } from '../helpers/joined-regexp.ts';

let ws: Workspace;
let server: KbctxServer;

before(async () => {
  ws = new Workspace('kbctx-faults-');
  ws.write('docs/a.md', '# A\n\nalpha\n');
  // The faults come from a helper module in the plugin's folder, after the server is ready.
  ws.write(
    'plugins/flaky/index.mjs',
    `import { misbehave } from './misbehave.mjs';
export default { name: 'flaky', version: '1.0.0', kbctx: '^0.2', apply(kernel) { kernel.hooks.ready.tap('flaky',
  () => misbehave()); } };
`,
  );
  ws.write(
    'plugins/flaky/misbehave.mjs',
    `export function misbehave() {
  setTimeout(() => { throw new Error('flaky timer went off'); }, 20);
  setTimeout(() => { void Promise.reject(new Error('flaky promise nobody awaited')); }, 40);
}
`,
  );
  ws.write(
    'kbctx.toml',
    `plugins = ["bundled", ${JSON.stringify(ws.path('plugins/flaky/index.mjs'))}]\n\n[db]\npath = ` +
      `"data/kb.sqlite"\n\n[connectors.filesystem.docs]\nroot = "docs"\n`,
  );
  server = await spawnServer(ws, ['-c', 'kbctx.toml', 'serve', 'mcp', '--bind', '127.0.0.1:0', '--no-watch']);
});
after(async () => {
  if (server && server.child.exitCode === null) await server.stop();
  ws.cleanup();
});

async function logMatches(pattern: RegExp): Promise<void> {
  for (let i = 0; i < 200 && !pattern.test(server.stderr()); i++)
    await new Promise((resolve) => setTimeout(resolve, 50));
  assert.match(server.stderr(), pattern);
}

it(
  "a plugin's throwing timer and rejected floating promise " + 'are logged naming it; the server keeps serving',
  async () => {
    await logMatches(
      /plugin 'flaky' failed outside a hook \(uncaught exception\), still serving: Error: flaky timer went off/,
    );
    await logMatches(
      joinedRegExp(
        /plugin 'flaky' failed outside a hook \(unhandled rejection\), /,
        /still serving: Error: flaky promise nobody awaited/,
      ),
    );
    assert.match(server.stderr(), /misbehave\.mjs/, 'the stack says where');
    const health = await fetch(`${server.url}/health`);
    assert.equal(health.status, 200);
    const search = await fetch(`${server.url}/tools/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"query":"alpha"}',
    });
    assert.equal(search.status, 200);
    assert.equal(server.child.exitCode, null);
    assert.equal(await server.stop(), 0);
  },
);
