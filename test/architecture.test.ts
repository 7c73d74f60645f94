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
  'core/app/extension-agent.ts → plugins/lua-bridge/scripting/script-agent.ts',
  'core/app/extension-connector-instance.ts → plugins/lua-bridge/scripting/connector-items.ts',
  'core/app/extension-connector-instance.ts → plugins/lua-bridge/scripting/lua-values.ts',
  'core/app/extension-tool.ts → plugins/lua-bridge/scripting/tool-meta.ts',
  'core/cli/commands/doctor.ts → registry/git.ts',
  'core/cli/commands/doctor.ts → registry/registries.ts',
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

/**
 * registry/ is the distribution's registry library (git registries, manifests, adding and trusting
 * plugins); the registry-commands plugin is its command line and may import it — but not
 * registry/bundled.ts or the entries, which import the plugins.
 */
const REGISTRY_LIBRARY_USERS = new Set(['plugins/registry-commands']);
const registryLibrary = (file: string, target: string): boolean =>
  REGISTRY_LIBRARY_USERS.has(path.dirname(file)) && target.startsWith('registry/') && !['registry/bundled.ts', 'registry/cli.ts', 'registry/index.ts'].includes(target);

it('core/ imports nothing from plugins/ or registry/ (but the listed transitional edges)', () => {
  const bad = violations(sourceFiles('core'), (file, target) => target.startsWith('core/') || transitional(file, target));
  assert.deepEqual(bad, []);
});

it('a plugin imports only core/index.ts and its own files', () => {
  const plugins = readdirSync(path.join(REPO_ROOT, 'plugins'));
  assert.ok(plugins.length > 0);
  const bad = plugins.flatMap((name) => {
    const own = `plugins/${name}/`;
    return violations(sourceFiles(`plugins/${name}`), (file, target) => target.startsWith(own) || target === 'core/index.ts' || transitional(file, target) || registryLibrary(file, target));
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
