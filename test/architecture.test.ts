// The plugin host's dependency rules, read from the import statements of every source file:
// core/ imports nothing from plugins/ or registry/; a plugin imports core/ only through its public
// API (core/index.ts) and otherwise only its own files. The edges that still break these rules while
// issue 22 finishes are listed in TRANSITIONAL and only ever shrink.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';
import { REPO_ROOT } from './helpers/workspace.ts';

/**
 * Imports that break the rules and are still allowed while issue 22 finishes the move (each
 * `from → to`, as the test prints them). The list only ever shrinks: fixing one means deleting its line.
 */
const TRANSITIONAL = new Set<string>([
  'core/app/compose.ts → plugins/extract-documents/formats/plugin-extraction.ts',
  'core/app/compose.ts → plugins/lua-bridge/scripting/context-bridge.ts',
  'core/app/compose.ts → plugins/lua-bridge/scripting/script-env.ts',
  'core/app/compose.ts → plugins/lua-bridge/scripting/scripting-service.ts',
  'core/app/compose.ts → plugins/lua-bridge/scripting/scripting.ts',
  'core/app/compose.ts → plugins/lua-bridge/scripting/scripting.ts',
  'core/app/compose.ts → plugins/lua-bridge/scripting/scripting.ts',
  'core/app/compose.ts → registry/bundled.ts',
  'core/app/compose.ts → src/extensions/extension-api.ts',
  'core/app/compose.ts → src/extensions/extension-connector-instance.ts',
  'core/app/compose.ts → src/extensions/load-extensions.ts',
  'core/app/compose.ts → src/live/embed-follower.ts',
  'core/app/compose.ts → src/live/live-sync.ts',
  'core/app/compose.ts → src/registry/follow-overrides.ts',
  'core/app/compose.ts → src/watch/parcel-watcher.ts',
  'core/app/plugin-connector.ts → src/extensions/extension-connector-instance.ts',
  'core/app/plugin-connector.ts → src/extensions/extension-tool.ts',
  'core/app/plugin-parts.ts → src/extensions/extension-agent.ts',
  'core/app/plugin-parts.ts → src/extensions/extension-api.ts',
  'core/app/plugin-parts.ts → src/extensions/extension-tool.ts',
  'core/app/sync.ts → plugins/chunker-default/chunker.ts',
  'core/cli/commands/agent.ts → plugins/lua-bridge/scripting/scaffold.ts',
  'core/cli/commands/connector.ts → plugins/lua-bridge/scripting/scaffold.ts',
  'core/cli/commands/doctor.ts → src/registry/git.ts',
  'core/cli/commands/doctor.ts → src/registry/registries.ts',
  'core/cli/commands/init.ts → plugins/store-postgres/migrations.ts',
  'core/cli/commands/init.ts → plugins/store-sqlite/migrations.ts',
  'core/cli/commands/script-output.ts → plugins/lua-bridge/scripting/scaffold.ts',
  'core/cli/commands/script-output.ts → plugins/lua-bridge/scripting/scripting.ts',
  'core/cli/commands/serve-entry.ts → src/cli/commands/serve-live.ts',
  'core/cli/commands/serve-service.ts → src/cli/commands/serve-live.ts',
  'core/cli/commands/serve-sync-ipc.ts → src/live/connector-runner.ts',
  'core/cli/commands/serve-sync-ipc.ts → src/live/live-sync.ts',
  'core/cli/commands/tool.ts → plugins/lua-bridge/scripting/scaffold.ts',
  'core/cli/run-cli.ts → src/cli/commands/extension.ts',
  'core/cli/run-cli.ts → src/cli/commands/registry.ts',
  'core/cli/script-section.ts → plugins/lua-bridge/scripting/script-file.ts',
  'core/connectors/file-item.ts → plugins/extract-documents/formats/extract.ts',
  'core/lib/index.ts → src/extensions/extension-api.ts',
  'plugins/agents-inline/index.ts → core/app/inline-agents-service.ts',
  'plugins/connector-filesystem/filesystem-connector.ts → core/config/types.ts',
  'plugins/connector-filesystem/filesystem-connector.ts → core/connectors/connector.ts',
  'plugins/connector-filesystem/filesystem-connector.ts → core/connectors/file-item.ts',
  'plugins/connector-filesystem/filesystem-connector.ts → core/connectors/globs.ts',
  'plugins/connector-filesystem/filesystem-connector.ts → core/domain/errors.ts',
  'plugins/connector-filesystem/index.ts → core/config/types.ts',
  'plugins/connector-filesystem/walk.ts → core/connectors/connector.ts',
  'plugins/connector-filesystem/walk.ts → core/connectors/globs.ts',
  'plugins/connector-git/commit-times.ts → core/domain/errors.ts',
  'plugins/connector-git/git-connector.ts → core/config/types.ts',
  'plugins/connector-git/git-connector.ts → core/connectors/connector.ts',
  'plugins/connector-git/git-connector.ts → core/connectors/file-item.ts',
  'plugins/connector-git/git-connector.ts → core/connectors/globs.ts',
  'plugins/connector-git/git-connector.ts → core/domain/errors.ts',
  'plugins/connector-git/index.ts → core/config/types.ts',
  'plugins/connector-git/run-git.ts → core/domain/errors.ts',
  'plugins/connector-s3/index.ts → core/config/types.ts',
  'plugins/connector-s3/s3-client.ts → core/config/types.ts',
  'plugins/connector-s3/s3-client.ts → core/domain/errors.ts',
  'plugins/connector-s3/s3-connector.ts → core/config/types.ts',
  'plugins/connector-s3/s3-connector.ts → core/connectors/connector.ts',
  'plugins/connector-s3/s3-connector.ts → core/connectors/file-item.ts',
  'plugins/connector-s3/s3-connector.ts → core/connectors/globs.ts',
  'plugins/embedder-local/foreign-local-models.ts → core/domain/errors.ts',
  'plugins/embedder-local/local-embedder.ts → core/domain/errors.ts',
  'plugins/embedder-local/local-embedder.ts → core/embed/check-vectors.ts',
  'plugins/embedder-ollama/ollama-embedder.ts → core/domain/errors.ts',
  'plugins/embedder-ollama/ollama-embedder.ts → core/embed/check-vectors.ts',
  'plugins/embedder-ollama/ollama-embedder.ts → core/embed/embedder.ts',
  'plugins/embedder-ollama/ollama-embedder.ts → core/embed/post-json.ts',
  'plugins/embedder-openai/openai-embedder.ts → core/domain/errors.ts',
  'plugins/embedder-openai/openai-embedder.ts → core/embed/check-vectors.ts',
  'plugins/embedder-openai/openai-embedder.ts → core/embed/embedder.ts',
  'plugins/embedder-openai/openai-embedder.ts → core/embed/post-json.ts',
  'plugins/extract-documents/formats/extract.ts → core/connectors/connector.ts',
  'plugins/extract-documents/formats/extract.ts → core/hook-types.ts',
  'plugins/extract-documents/formats/extract.ts → core/plugin-error.ts',
  'plugins/extract-documents/formats/plugin-extraction.ts → core/hook-types.ts',
  'plugins/extract-documents/formats/plugin-extraction.ts → core/kernel.ts',
  'plugins/lua-bridge/index.ts → core/config/types.ts',
  'plugins/lua-bridge/lua-plugin.ts → core/domain/errors.ts',
  'plugins/lua-bridge/plugin-values.ts → core/domain/errors.ts',
  'plugins/lua-bridge/script-parts.ts → core/app/agents.ts',
  'plugins/lua-bridge/script-parts.ts → core/app/part-guards.ts',
  'plugins/lua-bridge/script-parts.ts → core/app/tools.ts',
  'plugins/lua-bridge/scripting/connector-items.ts → core/connectors/connector.ts',
  'plugins/lua-bridge/scripting/connector-items.ts → core/domain/models.ts',
  'plugins/lua-bridge/scripting/context-bridge.ts → core/app/documents.ts',
  'plugins/lua-bridge/scripting/context-bridge.ts → core/app/search-params.ts',
  'plugins/lua-bridge/scripting/context-bridge.ts → core/app/search.ts',
  'plugins/lua-bridge/scripting/context-bridge.ts → core/app/sources.ts',
  'plugins/lua-bridge/scripting/context-bridge.ts → core/app/wire.ts',
  'plugins/lua-bridge/scripting/context-bridge.ts → core/store/store.ts',
  'plugins/lua-bridge/scripting/lua-values.ts → core/domain/errors.ts',
  'plugins/lua-bridge/scripting/runtime/script-runtime.ts → core/domain/errors.ts',
  'plugins/lua-bridge/scripting/runtime/script-runtime.ts → core/domain/log-line.ts',
  'plugins/lua-bridge/scripting/scaffold.ts → core/domain/errors.ts',
  'plugins/lua-bridge/scripting/script-agent.ts → core/app/agents.ts',
  'plugins/lua-bridge/scripting/script-agent.ts → core/config/types.ts',
  'plugins/lua-bridge/scripting/script-agent.ts → core/domain/errors.ts',
  'plugins/lua-bridge/scripting/script-connector.ts → core/config/types.ts',
  'plugins/lua-bridge/scripting/script-connector.ts → core/connectors/connector.ts',
  'plugins/lua-bridge/scripting/script-connector.ts → core/domain/errors.ts',
  'plugins/lua-bridge/scripting/script-tool.ts → core/app/tools.ts',
  'plugins/lua-bridge/scripting/script-tool.ts → core/config/types.ts',
  'plugins/lua-bridge/scripting/scripting-service.ts → core/app/part-guards.ts',
  'plugins/lua-bridge/scripting/scripting-service.ts → core/config/types.ts',
  'plugins/lua-bridge/scripting/scripting-service.ts → core/services.ts',
  'plugins/lua-bridge/scripting/scripting.ts → core/app/agents.ts',
  'plugins/lua-bridge/scripting/scripting.ts → core/config/types.ts',
  'plugins/lua-bridge/scripting/scripting.ts → core/connectors/connector.ts',
  'plugins/lua-bridge/scripting/scripting.ts → core/domain/errors.ts',
  'plugins/lua-bridge/scripting/tool-meta.ts → core/domain/errors.ts',
  'plugins/lua-bridge/scripting/tool-meta.ts → core/tools/param-spec.ts',
  'plugins/mcp-http/index.ts → core/cli/commands/serve-service.ts',
  'plugins/mcp-stdio/index.ts → core/cli/commands/serve-service.ts',
  'plugins/rest/index.ts → core/cli/commands/serve-service.ts',
  'plugins/store-postgres/catch-up.ts → core/domain/models.ts',
  'plugins/store-postgres/catch-up.ts → core/store/store.ts',
  'plugins/store-postgres/index.ts → core/store/lazy-store.ts',
  'plugins/store-postgres/index.ts → core/store/redact-url.ts',
  'plugins/store-postgres/locks.ts → core/domain/errors.ts',
  'plugins/store-postgres/locks.ts → core/store/store.ts',
  'plugins/store-postgres/locks.ts → core/store/wait-for-lock.ts',
  'plugins/store-postgres/mirror.ts → core/domain/errors.ts',
  'plugins/store-postgres/mirror.ts → core/store/store.ts',
  'plugins/store-postgres/mirror.ts → core/store/sync-lock.ts',
  'plugins/store-postgres/mirror.ts → plugins/store-sqlite/sqlite-store.ts',
  'plugins/store-postgres/pg-store.ts → core/domain/errors.ts',
  'plugins/store-postgres/pg-store.ts → core/domain/models.ts',
  'plugins/store-postgres/pg-store.ts → core/store/redact-url.ts',
  'plugins/store-postgres/pg-store.ts → core/store/store.ts',
  'plugins/store-postgres/pg-store.ts → plugins/store-sqlite/sqlite-store.ts',
  'plugins/store-postgres/pool.ts → core/domain/errors.ts',
  'plugins/store-postgres/reads.ts → core/store/store.ts',
  'plugins/store-postgres/test-docs.ts → core/domain/models.ts',
  'plugins/store-postgres/test-docs.ts → core/store/store.ts',
  'plugins/store-postgres/transactions.ts → core/domain/errors.ts',
  'plugins/store-postgres/writer.ts → core/domain/models.ts',
  'plugins/store-postgres/writer.ts → core/store/store.ts',
  'plugins/store-sqlite/document-filter.ts → core/store/store.ts',
  'plugins/store-sqlite/document-writer.ts → core/domain/models.ts',
  'plugins/store-sqlite/document-writer.ts → core/search/segment-cjk.ts',
  'plugins/store-sqlite/document-writer.ts → core/store/store.ts',
  'plugins/store-sqlite/embedding-rows.ts → core/store/store.ts',
  'plugins/store-sqlite/filter-sql.ts → core/store/store.ts',
  'plugins/store-sqlite/fts-totals.ts → core/search/segment-cjk.ts',
  'plugins/store-sqlite/index.ts → core/store/sync-lock.ts',
  'plugins/store-sqlite/integrity.ts → core/store/store.ts',
  'plugins/store-sqlite/keyword-search.ts → core/search/analyze-query.ts',
  'plugins/store-sqlite/keyword-search.ts → core/search/analyze-query.ts',
  'plugins/store-sqlite/keyword-search.ts → core/search/bm25-normalize.ts',
  'plugins/store-sqlite/keyword-search.ts → core/search/bm25-terms.ts',
  'plugins/store-sqlite/keyword-search.ts → core/store/store.ts',
  'plugins/store-sqlite/keyword/postings-file.ts → core/search/postings-topk.ts',
  'plugins/store-sqlite/keyword/postings-index.ts → core/search/postings-topk.ts',
  'plugins/store-sqlite/postings-search.ts → core/search/bm25-terms.ts',
  'plugins/store-sqlite/postings-search.ts → core/search/postings-topk.ts',
  'plugins/store-sqlite/postings-search.ts → core/store/store.ts',
  'plugins/store-sqlite/postings-source.ts → core/search/bm25-terms.ts',
  'plugins/store-sqlite/postings-source.ts → core/search/segment-cjk.ts',
  'plugins/store-sqlite/rows.ts → core/domain/models.ts',
  'plugins/store-sqlite/rows.ts → core/store/store.ts',
  'plugins/store-sqlite/sqlite-store.ts → core/domain/errors.ts',
  'plugins/store-sqlite/sqlite-store.ts → core/domain/models.ts',
  'plugins/store-sqlite/sqlite-store.ts → core/domain/path-problem.ts',
  'plugins/store-sqlite/sqlite-store.ts → core/search/vector-topk.ts',
  'plugins/store-sqlite/sqlite-store.ts → core/store/store.ts',
  'plugins/store-sqlite/sqlite-store.ts → core/store/store.ts',
  'plugins/store-sqlite/vector-search.ts → core/search/vector-topk.ts',
  'plugins/store-sqlite/vector-search.ts → core/store/store.ts',
  'plugins/store-sqlite/vector/ann-index.ts → core/store/store.ts',
  'plugins/store-sqlite/vector/exact-scan.ts → core/search/vector-topk.ts',
  'plugins/tools-builtin/index.ts → core/app/index-service.ts',
  'plugins/tools-builtin/index.ts → core/app/tools.ts',
  'plugins/transport-http/index.ts → core/cli/commands/serve-service.ts',
  'plugins/transport-http/start-http-server.ts → core/cli/commands/serve-service.ts',
  'plugins/transport-http/sync-surface.ts → src/http/sync-routes.ts', // replaces create-http-server.ts → sync-routes.ts; goes with the live-index plugin
  'plugins/web/index.ts → core/cli/commands/serve-service.ts',
  'plugins/web/web-facts.ts → core/app/compose.ts',
  'plugins/web/web-facts.ts → core/version.ts',
  'plugins/web/web-routes.ts → core/app/documents.ts',
  'plugins/web/web-routes.ts → core/app/sources.ts',
  'plugins/web/web-routes.ts → core/app/wire.ts',
  'plugins/web/web-routes.ts → core/store/store.ts',
]);

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(REPO_ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|mjs|js)$/.test(f) && !f.endsWith('.test.ts'))
    .map((f) => path.join(dir, f));
}

function relativeImports(file: string): string[] {
  const text = readFileSync(path.join(REPO_ROOT, file), 'utf8');
  return [...text.matchAll(/(?:^|\s)(?:import|export)\s[^'"]*?from\s+'(\.[^']+)'|import\('(\.[^']+)'\)/gm)]
    .map((m) => path.normalize(path.join(path.dirname(file), m[1] ?? m[2]!)));
}

const violations = (files: string[], allowed: (file: string, target: string) => boolean): string[] =>
  files.flatMap((file) => relativeImports(file).filter((target) => !allowed(file, target)).map((target) => `${file} → ${target}`));

const transitional = (file: string, target: string): boolean => TRANSITIONAL.has(`${file} → ${target}`);

it('core/ imports nothing from plugins/ or registry/ (but the listed transitional edges)', () => {
  const bad = violations(sourceFiles('core'), (file, target) => target.startsWith('core/') || transitional(file, target));
  assert.deepEqual(bad, []);
});

it('a plugin imports only core/index.ts and its own files', () => {
  const plugins = readdirSync(path.join(REPO_ROOT, 'plugins'));
  assert.ok(plugins.length > 0);
  const bad = plugins.flatMap((name) => {
    const own = `plugins/${name}/`;
    return violations(sourceFiles(`plugins/${name}`), (file, target) => target.startsWith(own) || target === 'core/index.ts' || transitional(file, target));
  });
  assert.deepEqual(bad, []);
});

it('every transitional edge still exists (a fixed one is deleted from the list)', () => {
  const live = new Set(['core', ...readdirSync(path.join(REPO_ROOT, 'plugins')).map((n) => `plugins/${n}`)].flatMap((dir) => sourceFiles(dir).flatMap((f) => relativeImports(f).map((t) => `${f} → ${t}`))));
  assert.deepEqual([...TRANSITIONAL].filter((edge) => !live.has(edge)), []);
});

it('the rule reader sees imports (guards the test itself)', () => {
  assert.ok(relativeImports('plugins/tools-builtin/index.ts').includes('core/index.ts'));
  assert.ok(relativeImports('core/kernel.ts').includes('core/hooks.ts'));
});

it('plugin modules with dynamic imports export a named constant, not `export default <expression>`', () => {
  // tsc does not rewrite `import('./x.ts')` inside an `export default` expression to `.js` in dist/
  // (seen with TypeScript 6); `const plugin = definePlugin({...}); export default plugin;` is rewritten.
  const bad = readdirSync(path.join(REPO_ROOT, 'plugins'))
    .flatMap((name) => sourceFiles(`plugins/${name}`))
    .filter((file) => {
      const text = readFileSync(path.join(REPO_ROOT, file), 'utf8');
      return /\bimport\(/.test(text) && /^export default (?![A-Za-z_$][\w$]*;)/m.test(text);
    });
  assert.deepEqual(bad, []);
});
