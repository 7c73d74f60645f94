// kbctx as a library: index a folder, search it, then mount the REST and MCP surfaces under /kbctx/ in
// another node:http server. Run: node examples/library/search-and-serve.mjs (after `npm install kbctx`).
import { createServer } from 'node:http';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHttpHandler, openKbctx } from 'kbctx';

const dir = await mkdtemp(path.join(tmpdir(), 'kbctx-example-'));
await mkdir(path.join(dir, 'notes'));
await writeFile(
  path.join(dir, 'notes', 'keys.md'),
  '# Key rotation\n\nRotate the signing keys every 90 days with the vault CLI.\n',
);
await writeFile(
  path.join(dir, 'notes', 'deploy.md'),
  '# Deploying\n\nDeploy from main after the release checklist is green.\n',
);

// The config as an object with the TOML keys (or a path to a kbctx.toml).
const kbctx = await openKbctx({
  cwd: dir,
  config: { db: { path: '.kbctx/kbctx.sqlite' }, connectors: { filesystem: { notes: { root: 'notes' } } } },
});
try {
  const { connectors } = await kbctx.sync();
  for (const c of connectors) console.log(`synced ${c.connector}: ${c.upserted} documents`);

  const { results } = await kbctx.search({ query: 'how do we rotate signing keys?', limit: 3 });
  for (const r of results) console.log(`hit ${r.title} (${r.source}) score ${r.score}`);
  const doc = await kbctx.get(results[0].id);
  console.log(`get ${doc.title}: ${doc.body.split('\n').at(-2)}`);
  const { sources } = await kbctx.sources();
  console.log(
    `sources: ${sources.map((s) => `${s.source} (${s.document_count} documents, ${s.chunk_count} chunks)`).join(', ')}`,
  );

  // Mount REST + MCP under /kbctx/ in an existing server.
  const handler = createHttpHandler(kbctx);
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/kbctx/')) {
      req.url = req.url.slice('/kbctx'.length);
      handler(req, res);
    } else {
      res.end('the host application\n');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  const health = await (await fetch(`${base}/kbctx/health`)).json();
  console.log(`GET /kbctx/health: ${health.status}`);
  const answer = await fetch(`${base}/kbctx/tools/search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'deploy' }),
  });
  const body = await answer.json();
  console.log(`POST /kbctx/tools/search: ${answer.status}, first hit ${body.results[0]?.title}`);
  await handler.close();
  await new Promise((resolve) => server.close(resolve));
} finally {
  await kbctx.close();
  await rm(dir, { recursive: true, force: true });
}
