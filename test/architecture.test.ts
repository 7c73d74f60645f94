// The plugin host's dependency rules, read from the import statements of every source file:
// core/ imports nothing from plugins/ or registry/; a plugin imports core/ only through its public
// API (core/index.ts) and otherwise only its own files.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';
import { REPO_ROOT } from './helpers/workspace.ts';

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

/**
 * registry/ is the distribution's registry library (git registries, manifests, adding and trusting
 * plugins); the registry-commands plugin is its command line and may import it — but not
 * registry/bundled.ts or the entries, which import the plugins.
 */
const REGISTRY_LIBRARY_USERS = new Set(['plugins/registry-commands']);
const registryLibrary = (file: string, target: string): boolean =>
  REGISTRY_LIBRARY_USERS.has(path.dirname(file)) && target.startsWith('registry/') && !['registry/bundled.ts', 'registry/cli.ts', 'registry/index.ts'].includes(target);

/** The public API: the whole (core/index.ts, the package's main) and its light entries (ADR 0130). */
const PUBLIC_ENTRIES = ['core/index.ts', 'core/api/plugin.ts', 'core/api/algorithms.ts', 'core/api/connectors.ts', 'core/api/use-cases.ts'];

it('core/ imports nothing from plugins/ or registry/', () => {
  const bad = violations(sourceFiles('core'), (_file, target) => target.startsWith('core/'));
  assert.deepEqual(bad, []);
});

it('a plugin imports only the public API (core/index.ts and its light entries) and its own files', () => {
  const plugins = readdirSync(path.join(REPO_ROOT, 'plugins'));
  assert.ok(plugins.length > 0);
  const bad = plugins.flatMap((name) => {
    const own = `plugins/${name}/`;
    return violations(sourceFiles(`plugins/${name}`), (file, target) => target.startsWith(own) || PUBLIC_ENTRIES.includes(target) || registryLibrary(file, target));
  });
  assert.deepEqual(bad, []);
});

it('core/ reaches its own modules directly, never through the public API entries (they load them all)', () => {
  // Only the library's entry re-exports the whole API; core/index.ts re-exports its light entries.
  const reexports = new Set(['core/lib/index.ts', 'core/index.ts']);
  const bad = violations(sourceFiles('core').filter((f) => !reexports.has(f)), (_file, target) => !PUBLIC_ENTRIES.includes(target));
  assert.deepEqual(bad, []);
});

it('the top level is the card\'s: core, plugins, registry, config, test (no src/)', () => {
  for (const dir of ['core', 'plugins', 'registry', 'config', 'test']) assert.ok(existsSync(path.join(REPO_ROOT, dir)), dir);
  assert.equal(existsSync(path.join(REPO_ROOT, 'src')), false);
  const colocated = ['core', 'plugins'].flatMap((dir) => readdirSync(path.join(REPO_ROOT, dir), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.test.ts')).map((f) => `${dir}/${f}`));
  assert.deepEqual(colocated, [], 'tests live under test/, mirroring core/ and plugins/');
});

it('the rule reader sees imports (guards the test itself)', () => {
  assert.ok(relativeImports('plugins/tools-builtin/index.ts').includes('core/api/plugin.ts'));
  assert.ok(relativeImports('plugins/mcp-stdio/index.ts').includes('core/index.ts'), 'dynamic import()');
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
