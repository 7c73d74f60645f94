// ADR 0130 (issue 22, start-up): a command imports only what it runs. The real CLI runs in a child
// process with a `module.registerHooks` load counter; `kbctx search` and a no-change `kbctx sync` must
// not load the whole public API (core/index.ts), code of plugins they do not use, or the registry
// library. No timing: the list of modules is what regresses silently.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { after, before, it } from 'node:test';
import { REPO_ROOT, Workspace } from '../../helpers/workspace.ts';

const ws = new Workspace('kbctx-start-up-');
const COUNTER = `import module from 'node:module';
import { writeFileSync } from 'node:fs';
const loaded = [];
module.registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context); } });
process.on('exit', () => writeFileSync(process.env.LOADED_OUT, JSON.stringify(loaded)));
`;

/** Repository-relative paths (and node_modules/<package>/…) of the modules `kbctx …args` loaded. */
async function modulesLoadedBy(args: string[]): Promise<string[]> {
  const out = ws.path(`loaded-${args[0]}.json`);
  const r = await ws.kbctx(args, { env: { NODE_OPTIONS: `--import=${pathToFileURL(ws.path('counter.mjs')).href}`, LOADED_OUT: out } });
  assert.equal(r.code, 0, r.stderr);
  const root = pathToFileURL(REPO_ROOT).href;
  return (JSON.parse(readFileSync(out, 'utf8')) as string[]).map((url) => url.replace(root, '').replace(/^.*\/node_modules\//, 'node_modules/'));
}

/** What neither command needs (each was loaded at start-up before ADR 0130's changes). */
const NOT_AT_START_UP = [
  'core/index.ts', // the whole public API: plugins reach core through core/api/*.ts
  'core/app/plugin-parts.ts', // plugin tool/agent adapters: when a registry is built
  'registry/registries.ts', // the registry library: only for registries with script sections
  'plugins/embedder-openai/create-openai-embedder.ts', // embedders: when the provider is used
  'plugins/embedder-local/create-local-embedder.ts',
  'plugins/embedder-ollama/create-ollama-embedder.ts',
  'plugins/embedder-transformers/create-transformers-embedder.ts',
  'plugins/lua-bridge/commands/script-commands.ts', // plugin commands: when the `commands` hook is called
  'plugins/registry-commands/registry-command.ts',
  'plugins/extensions/extension-command.ts',
  'plugins/live-index/status-wire.ts', // serving only
  'plugins/store-postgres/mirror-path.ts', // other stores
  'plugins/store-lancedb/rows.ts',
  'node_modules/ajv/', // tool parameters without `schema` keywords are checked without ajv
];

const loadedAmong = (loaded: string[]): string[] => NOT_AT_START_UP.filter((m) => loaded.some((l) => l === m || (m.endsWith('/') && l.startsWith(m))));

before(async () => {
  ws.write('counter.mjs', COUNTER);
  ws.write('docs/a.md', '# Ospreys\n\nOspreys fish in rivers and lakes.\n');
  ws.config('[db]\npath = "index.sqlite"\n[connectors.filesystem.docs]\nroot = "docs"\n');
  assert.equal((await ws.kbctx(['sync', 'all'])).code, 0);
});
after(() => ws.cleanup());

it('kbctx search loads its store and the plugin indexes, not the whole API or unused plugin code', async () => {
  const loaded = await modulesLoadedBy(['search', 'osprey']);
  for (const needed of ['core/app/search.ts', 'plugins/store-sqlite/sqlite-store.ts', 'plugins/embedder-openai/index.ts']) assert.ok(loaded.includes(needed), `${needed} loaded (guards the counter)`);
  assert.deepEqual(loadedAmong(loaded), []);
});

it('a no-change kbctx sync loads the connector, not the whole API or unused plugin code', async () => {
  const loaded = await modulesLoadedBy(['sync', 'all']);
  assert.ok(loaded.includes('plugins/connector-filesystem/filesystem-connector.ts'), 'the connector ran (guards the counter)');
  assert.deepEqual(loadedAmong(loaded), []);
});
