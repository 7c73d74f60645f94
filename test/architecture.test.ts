// The plugin host's dependency rules, read from the import statements of every source file:
// core/ imports nothing from plugins/ or registry/; a plugin imports core/ only through its public
// API (core/index.ts) and otherwise only its own files. src/ is the code not yet moved into core/
// and plugins/ (issue 22): the imports of it that remain are listed here and only ever shrink.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';
import { REPO_ROOT } from './helpers/workspace.ts';

/** Imports of src/ still allowed while it is being moved: from → the src/ files it may import. */
const TRANSITIONAL: Record<string, string[]> = {
  core: ['src/core/errors.ts', 'src/core/models.ts', 'src/core/tools/param-spec.ts', 'src/app/search-params.ts', 'src/connectors/connector.ts', 'src/store/store.ts'],
  'plugins/tools-builtin': ['src/app/index-service.ts', 'src/app/tools.ts'],
  'plugins/connector-filesystem': ['src/config/types.ts', 'src/core/errors.ts', 'src/connectors/connector.ts', 'src/connectors/file-item.ts', 'src/connectors/globs.ts'],
  'plugins/connector-git': ['src/config/types.ts', 'src/core/errors.ts', 'src/connectors/connector.ts', 'src/connectors/file-item.ts', 'src/connectors/globs.ts'],
  'plugins/connector-s3': ['src/config/types.ts', 'src/core/errors.ts', 'src/connectors/connector.ts', 'src/connectors/file-item.ts', 'src/connectors/globs.ts'],
  'plugins/store-sqlite': ['src/store/sqlite/sqlite-store.ts', 'src/store/sync-lock.ts'],
  'plugins/store-postgres': ['src/store/lazy-store.ts', 'src/store/redact-url.ts', 'src/store/postgres/pg-store.ts'],
  'plugins/lua-bridge': [
    'src/config/types.ts',
    'src/scripting/scripting-service.ts',
    'src/scripting/scripting.ts',
    'src/app/part-guards.ts',
    'src/app/agents.ts',
    'src/app/tools.ts',
    'src/core/errors.ts',
  ],
  'plugins/transport-http': [
    'src/cli/commands/serve-service.ts',
    'src/http/bind-address.ts',
    'src/http/create-http-server.ts',
    'src/http/exposure-policy.ts',
    'src/http/listen.ts',
  ],
  'plugins/rest': ['src/cli/commands/serve-service.ts', 'src/http/rest-routes.ts'],
  'plugins/mcp-http': ['src/cli/commands/serve-service.ts', 'src/mcp/mcp-http-handler.ts', 'src/app/documents.ts'],
  'plugins/web': [
    'src/cli/commands/serve-service.ts',
    'src/compose.ts',
    'src/version.ts',
    'src/app/documents.ts',
    'src/app/sources.ts',
    'src/app/wire.ts',
    'src/http/rest-routes.ts',
    'src/store/store.ts',
  ],
  'plugins/mcp-stdio': ['src/cli/commands/serve-service.ts', 'src/mcp/mcp-stdio.ts', 'src/app/documents.ts'],
  'plugins/agents-inline': ['src/app/inline-agents-service.ts'],
  'plugins/chunker-default': ['src/core/chunker.ts'],
  'plugins/embedder-local': ['src/core/errors.ts', 'src/embed/check-vectors.ts'],
  'plugins/embedder-openai': ['src/core/errors.ts', 'src/embed/check-vectors.ts', 'src/embed/embedder.ts', 'src/embed/post-json.ts'],
  'plugins/embedder-ollama': ['src/core/errors.ts', 'src/embed/check-vectors.ts', 'src/embed/embedder.ts', 'src/embed/post-json.ts'],
  'plugins/extract-documents': [
    'src/connectors/formats/html.ts',
    'src/connectors/formats/pdf.ts',
    'src/connectors/formats/office/docx.ts',
    'src/connectors/formats/office/pptx.ts',
    'src/connectors/formats/office/xlsx.ts',
  ],
};

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

it('core/ imports nothing from plugins/ or registry/, and of src/ only the listed transitional files', () => {
  const bad = violations(sourceFiles('core'), (_file, target) => target.startsWith('core/') || TRANSITIONAL['core']!.includes(target));
  assert.deepEqual(bad, []);
});

it('a plugin imports only core/index.ts and its own files', () => {
  const plugins = readdirSync(path.join(REPO_ROOT, 'plugins'));
  assert.ok(plugins.length > 0);
  const bad = plugins.flatMap((name) => {
    const own = `plugins/${name}/`;
    return violations(sourceFiles(`plugins/${name}`), (_file, target) => target.startsWith(own) || target === 'core/index.ts' || (TRANSITIONAL[`plugins/${name}`] ?? []).includes(target));
  });
  assert.deepEqual(bad, []);
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
