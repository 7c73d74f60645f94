// Lore as a library: index a folder, search it, then mount the REST and MCP surfaces under /lore/ in
// another node:http server. Run: node examples/library/search-and-serve.mjs (after `npm install lore-context`).
import { createServer } from 'node:http';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHttpHandler, openLore } from 'lore-context';

const dir = await mkdtemp(path.join(tmpdir(), 'lore-example-'));
await mkdir(path.join(dir, 'notes'));
await writeFile(path.join(dir, 'notes', 'keys.md'), '# Key rotation\n\nRotate the signing keys every 90 days with the vault CLI.\n');
await writeFile(path.join(dir, 'notes', 'deploy.md'), '# Deploying\n\nDeploy from main after the release checklist is green.\n');

// The config as an object with the TOML keys (or a path to a lore.toml).
const lore = await openLore({
  cwd: dir,
  config: { db: { path: '.lore/lore.sqlite' }, connectors: { filesystem: { notes: { root: 'notes' } } } },
});
try {
  const { connectors } = await lore.sync();
  for (const c of connectors) console.log(`synced ${c.connector}: ${c.upserted} documents`);

  const { results } = await lore.search({ query: 'how do we rotate signing keys?', limit: 3 });
  for (const r of results) console.log(`hit ${r.title} (${r.source}) score ${r.score}`);
  const doc = await lore.get(results[0].id);
  console.log(`get ${doc.title}: ${doc.body.split('\n').at(-2)}`);
  const { sources } = await lore.sources();
  console.log(`sources: ${sources.map((s) => `${s.source} (${s.document_count} documents, ${s.chunk_count} chunks)`).join(', ')}`);

  // Mount REST + MCP under /lore/ in an existing server.
  const handler = createHttpHandler(lore);
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/lore/')) {
      req.url = req.url.slice('/lore'.length);
      handler(req, res);
    } else {
      res.end('the host application\n');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  const health = await (await fetch(`${base}/lore/health`)).json();
  console.log(`GET /lore/health: ${health.status}`);
  const answer = await fetch(`${base}/lore/tools/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'deploy' }) });
  const body = await answer.json();
  console.log(`POST /lore/tools/search: ${answer.status}, first hit ${body.results[0]?.title}`);
  await handler.close();
  await new Promise((resolve) => server.close(resolve));
} finally {
  await lore.close();
  await rm(dir, { recursive: true, force: true });
}
