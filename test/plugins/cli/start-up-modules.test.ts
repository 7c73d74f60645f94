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
const resolved = [];
module.registerHooks({
  load(url, context, next) { loaded.push(url); return next(url, context); },
  resolve(specifier, context, next) { resolved.push([specifier, context.parentURL]); return next(specifier, context); },
});
process.on('exit', () =>
  writeFileSync(process.env.LOADED_OUT, JSON.stringify({ loaded, resolved, builtins: process.moduleLoadList })),
);
`;

/**
 * Repository-relative paths (and node_modules/<package>/…) of the modules `kbctx …args` loaded, and the
 * imports that reached Node's resolver (the counter's hook is registered first, so it sees only what
 * bin/kbctx.js's hook passes on) as [specifier, parent].
 */
async function modulesLoadedBy(
  args: string[],
  input?: string,
): Promise<{ loaded: string[]; resolved: [string, string][]; builtins: string[] }> {
  const out = ws.path(`loaded-${args[0]}.json`);
  const r = await ws.kbctx(args, {
    input,
    env: { NODE_OPTIONS: `--import=${pathToFileURL(ws.path('counter.mjs')).href}`, LOADED_OUT: out },
  });
  assert.equal(r.code, 0, r.stderr);
  const root = pathToFileURL(REPO_ROOT).href;
  const short = (url: string): string => url.replace(root, '').replace(/^.*\/node_modules\//, 'node_modules/');
  const { loaded, resolved, builtins } = JSON.parse(readFileSync(out, 'utf8')) as {
    loaded: string[];
    resolved: [string, string | undefined][];
    builtins: string[];
  };
  return {
    builtins,
    loaded: loaded.map(short),
    resolved: resolved.map(([specifier, parent]) => [specifier, short(parent ?? '')]),
  };
}

/** What neither command needs (each was loaded at start-up before ADR 0130's changes). */
const NOT_AT_START_UP = [
  'core/index.ts', // the whole public API: plugins reach core through core/api/*.ts
  'plugins/tool-registry/tool-registry.ts', // the tool registry and its adapters: when a registry is built
  'registry/registries.ts', // the registry library: only for registries with script sections
  'plugins/embedder-openai/create-openai-embedder.ts', // embedders: when the provider is used
  'plugins/embedder-local/create-local-embedder.ts',
  'plugins/embedder-ollama/create-ollama-embedder.ts',
  'plugins/embedder-transformers/create-transformers-embedder.ts',
  'plugins/lua-bridge/commands/script-commands.ts', // plugin commands: when the `commands` hook is called
  'plugins/registry-commands/registry-command.ts',
  'plugins/extensions/extension-command.ts',
  'plugins/models/models-command.ts',
  'plugins/models/models-service.ts', // the model cache and fetcher: when a hub model is configured
  'plugins/models/fetch-model.ts',
  'plugins/live-index/status-wire.ts', // serving only
  'plugins/metrics/recorder.ts', // metrics and prom-client: when an HTTP listener starts
  'node_modules/prom-client/',
  'plugins/store-postgres/mirror-path.ts', // other stores
  'plugins/store-lancedb/rows.ts',
  'node_modules/ajv/', // tool parameters without `schema` keywords are checked without ajv
  'plugins/store-sqlite/vector-search.ts', // the SQLite store's vectors, embeddings and checks: on first use
  'plugins/store-sqlite/vector/ann-index.ts',
  'plugins/store-sqlite/embedding-rows.ts',
  'plugins/store-sqlite/fts-totals.ts',
  'plugins/store-sqlite/integrity.ts',
  'registry/plugin-lock.ts', // only with registries or pins
  'core/config/config-module.ts', // only for a kbctx.config.mjs
  'core/embed/plugin-embedder.ts', // embedding is disabled by default
  'plugins/agents-inline/agents/agent-registry.ts', // the agent registry: when agents are listed or resolved
  'plugins/models/known-models.ts', // Context Harness model names: when [embedding] names a model
  // the built-in tool bodies: when tools are listed or a plugin's ctx.search runs
  'plugins/tools-builtin/builtin-tools.ts',
  'plugins/tools-builtin/index-tools.ts',
  // issue 30 (ADR 0130, fourth round): error-message helpers, other stores' and embedders' helpers, registries
  'core/domain/closest-name.ts', // "did you mean": when a name is unknown
  'core/embed/post-json.ts', // the embedders' HTTP client: on the first post
  'plugins/store-postgres/redact-url.ts', // PostgreSQL's URLs
  'registry/follow-overrides.ts', // only with registries
  // issue 34 (ADR 0222): traces only with an OTLP endpoint; without one nothing of OpenTelemetry is imported
  'plugins/telemetry/tracing.ts',
  'plugins/telemetry/sampler.ts',
  'node_modules/@opentelemetry/',
];

/** What a search does not need beyond that: the SQLite store's write path, the since parser without a since filter. */
const NOT_FOR_SEARCH = [
  ...NOT_AT_START_UP,
  'plugins/store-sqlite/document-writer.ts',
  'plugins/store-sqlite/transaction.ts',
  'plugins/tools-builtin/since.ts',
  // the filters' reader, the language table and picomatch: only with a filter (ADR 0213)
  'plugins/tools-builtin/filter-params.ts',
  'core/domain/languages.ts',
  'node_modules/picomatch/',
  'plugins/tools-builtin/commands/get.ts', // other commands of the same plugin: each has its own tap
  'plugins/tools-builtin/commands/sources.ts',
  'plugins/cli/table.ts', // the cli plugin's table and progress helpers: when a command first calls one
  'plugins/cli/progress.ts',
  'plugins/cli/progress-lines.ts',
  'plugins/chunker-default/chunker.ts', // the chunker: when a document is chunked
  'core/config/configured-sections.ts', // a configured plugin's connector tables, or creating a connector
  'core/store/wait-for-lock.ts', // waiting for a connector lock (a sync)
  'plugins/tools-builtin/documents.ts', // whole documents: `get`
  'core/embed/embedding-providers.ts', // the provider names: when semantic search finds none configured
];

/**
 * How many of kbctx's own modules `kbctx search` may load: what it loaded when last tightened (issue 30's refactor had
 * taken it from 119 to 156 on a SciFact index; cut back, ADR 0130). Raise it only for a module a keyword search needs,
 * or a bundled plugin's index (143, then +3: eval's and rerank's indexes, `[rerank]`'s section; then 137: nine modules
 * of error messages, other stores, embedders, registries, sync and `get` required on first use, ADR 0130's fourth
 * round; +1: chunker-code's index; +3 modules a keyword search needs for chunk lines, ADR 0210:
 * core/domain/line-ranges.ts for the hits' lines and `path:12-48`, store-sqlite's keyword/symbol-words.ts and
 * keyword-text.ts for the symbol words the store indexes; +1: the search filter predicate
 * core/search/document-filter.ts, which every store's candidate retrieval consults, ADR 0213; +1: telemetry's index,
 * ADR 0222; +1: metrics' index, ADR 0216; +2: query-log's index with its `[query_log]` section, and core's request
 * origin, which every search reads for the `searched` hook, ADR 0220; +1: mcp-http's contract entry, its `api.ts`
 * with the exchange hooks its index creates and the metrics plugin taps, ADR 0226; −1: the built-in config's reader
 * joins core/config/package-root.ts, ADR 0239; +1: store-lancedb's contract entry, the `[db] path` it claims, which
 * the config loader asks to choose the engine, ADR 0241).
 */
const MAX_OWN_MODULES_FOR_SEARCH = 147;

const loadedAmong = (loaded: string[], unneeded = NOT_AT_START_UP): string[] =>
  unneeded.filter((m) => loaded.some((l) => l === m || (m.endsWith('/') && l.startsWith(m))));

before(async () => {
  ws.write('counter.mjs', COUNTER);
  ws.write('docs/a.md', '# Ospreys\n\nOspreys fish in rivers and lakes.\n');
  ws.config('[db]\npath = "index.sqlite"\n[connectors.filesystem.docs]\nroot = "docs"\n');
  assert.equal((await ws.kbctx(['sync', 'all'])).code, 0);
});
after(() => ws.cleanup());

it('kbctx search loads its store and the plugin indexes, not the whole API or unused plugin code', async () => {
  const { loaded } = await modulesLoadedBy(['search', 'osprey']);
  for (const needed of [
    'core/app/search.ts',
    'plugins/store-sqlite/sqlite-store.ts',
    'plugins/embedder-openai/index.ts',
  ])
    assert.ok(loaded.includes(needed), `${needed} loaded (guards the counter)`);
  assert.deepEqual(loadedAmong(loaded, NOT_FOR_SEARCH), []);
  const own = loaded.filter((m) => /^(core|plugins|registry)\//.test(m));
  assert.ok(own.length <= MAX_OWN_MODULES_FOR_SEARCH, `${own.length} own modules:\n${own.join('\n')}`);
});

it('a no-change kbctx sync loads the connector, not the whole API or unused plugin code', async () => {
  const { loaded } = await modulesLoadedBy(['sync', 'all']);
  for (const needed of [
    'plugins/connector-filesystem/filesystem-connector.ts',
    'plugins/store-sqlite/document-writer.ts',
  ])
    assert.ok(loaded.includes(needed), `${needed} loaded (guards the counter)`);
  assert.deepEqual(loadedAmong(loaded), []);
});

it("kbctx's own relative imports skip Node's resolver; node_modules and the entry's own imports do not", async () => {
  const { loaded, resolved } = await modulesLoadedBy(['search', 'osprey']);
  const own = resolved.filter(
    ([specifier, parent]) =>
      /^\.\.?\//.test(specifier) &&
      specifier.endsWith('.ts') &&
      !parent.startsWith('node_modules/') &&
      !parent.startsWith('file:'),
  );
  assert.deepEqual(own, [], 'relative imports between kbctx modules are resolved by bin/kbctx.js');
  assert.ok(loaded.filter((m) => m.endsWith('.ts')).length > 50, 'and they were loaded (guards the counter)');
  assert.ok(
    resolved.some(([specifier]) => specifier === 'commander'),
    'bare specifiers reach the resolver',
  );
  assert.ok(
    resolved.some(([, parent]) => parent.startsWith('node_modules/tapable/')),
    'imports inside node_modules reach the resolver',
  );
});

it('kbctx --version loads neither the plugin API, the cli contract entry, the config code nor tapable', async () => {
  const { loaded } = await modulesLoadedBy(['--version']);
  assert.ok(loaded.includes('plugins/cli/run-cli.ts'), 'the runner loaded (guards the counter)');
  for (const unneeded of [
    'core/api/plugin.ts',
    'plugins/cli/api.ts',
    'core/kernel.ts',
    'core/config/plugin-sections.ts',
  ])
    assert.ok(!loaded.includes(unneeded), `${unneeded} not loaded`);
  assert.ok(!loaded.some((m) => m.startsWith('node_modules/tapable/')), 'tapable not loaded');
});

it(
  'kbctx serve stdio --attach loads the bridge alone: no CLI ' + 'runner, kernel, config code, stores or MCP SDK',
  async () => {
    // A line to relay to a port nothing listens on: the bridge's request path runs too (answered with an error).
    const { loaded, builtins } = await modulesLoadedBy(
      ['serve', 'stdio', '--attach', 'http://127.0.0.1:9/mcp'],
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })}\n`,
    );
    assert.ok(loaded.includes('plugins/mcp-attach/bridge.ts'), 'the bridge loaded (guards the counter)');
    for (const unneeded of [
      'plugins/cli/run-cli.ts',
      'core/api/host.ts',
      'core/kernel.ts',
      'core/config/plugin-sections.ts',
      'core/app/bundled-set.ts',
      'registry/bundled.ts',
      'plugins/store-sqlite/sqlite-store.ts',
    ])
      assert.ok(!loaded.includes(unneeded), `${unneeded} not loaded`);
    assert.deepEqual(
      loaded.filter((m) => m.startsWith('node_modules/')),
      [],
      'no package from node_modules (commander, tapable, the MCP SDK, smol-toml…)',
    );
    // Node's own fetch/WebSocket stack: an ES import of node:http would load it (its namespace reads the lazy exports).
    assert.deepEqual(
      builtins.filter((m) => m.includes('undici')),
      [],
    );
    const own = loaded.filter((m) => /^(core|plugins|registry)\//.test(m));
    assert.deepEqual(own.sort(), [
      'plugins/mcp-attach/api.ts',
      'plugins/mcp-attach/bridge.ts',
      'plugins/mcp-attach/request-headers.ts',
      'plugins/mcp-attach/sse-reader.ts',
      'registry/cli.ts',
    ]);
  },
);
