// A plugin-added HTTP route (examples/plugins/metrics.ts, the `httpRoutes` example of docs/plugins-reference.md),
// in place of the bundled metrics plugin (`"!metrics"`), served by a real `kbctx serve mcp` with a token: 401
// without it (with the WWW-Authenticate challenge), 200 with it, 403 for a foreign Host; the banner line comes from
// the plugin.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { after, before, it } from 'node:test';
import { spawnServer, type KbctxServer } from '../helpers/kbctx-server.ts';
import { REPO_ROOT, Workspace } from '../helpers/workspace.ts';

let ws: Workspace;
let server: KbctxServer;

before(async () => {
  ws = new Workspace();
  mkdirSync(ws.path('plugins'), { recursive: true });
  copyFileSync(`${REPO_ROOT}examples/plugins/metrics.ts`, ws.path('plugins/metrics.ts'));
  ws.write('docs/a.md', '# A\n\nalpha\n');
  ws.config(
    'plugins = ["bundled", "!metrics", "./plugins/metrics.ts"]\n\n[connectors.filesystem.docs]\nroot = "docs"\n\n' +
      '[server]\nauth_token_env = "KBCTX_TEST_TOKEN"\n',
  );
  server = await spawnServer(ws, ['serve', 'mcp', '--bind', '127.0.0.1:0', '--no-watch'], {
    KBCTX_TEST_TOKEN: 'tok-metrics',
  });
});
after(async () => {
  server?.child.kill('SIGTERM');
  if (server) await new Promise((resolve) => server.child.once('exit', resolve));
  ws.cleanup();
});

it('serves the plugin route behind the Bearer auth of every route', async () => {
  assert.match(server.stdout, /Metrics: http:\/\/127\.0\.0\.1:\d+\/metrics/);
  const anonymous = await fetch(`${server.url}/metrics`);
  assert.equal(anonymous.status, 401);
  assert.equal(anonymous.headers.get('www-authenticate'), 'Bearer realm="kbctx"');
  assert.equal(((await anonymous.json()) as { error: { code: string } }).error.code, 'unauthorized');
  const wrong = await fetch(`${server.url}/metrics`, { headers: { authorization: 'Bearer nope' } });
  assert.equal(wrong.status, 401);
  const ok = await fetch(`${server.url}/metrics`, { headers: { authorization: 'Bearer tok-metrics' } });
  assert.equal(ok.status, 200);
  assert.match(ok.headers.get('content-type') ?? '', /^text\/plain/);
  assert.match(await ok.text(), /^kbctx_metrics_requests_total \d+$/m);
  // The plugin's POST-less path: 405 naming GET, from the same listener.
  const post = await fetch(`${server.url}/metrics`, {
    method: 'POST',
    headers: { authorization: 'Bearer tok-metrics' },
  });
  assert.equal(post.status, 405);
  assert.equal(post.headers.get('allow'), 'GET');
});
