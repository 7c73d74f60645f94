// The plugin host's dependency rules, read from the import statements of every source file:
// core/ imports nothing from plugins/ or registry/; a plugin imports core/ only through its public
// API (core/index.ts and core/api/*), its own files and other plugins' contract entries
// (`plugins/<name>/api.ts`, ADR 0160); no value-level import cycle; core imports no fastify,
// commander or MCP SDK (commander is the cli plugin's, the MCP SDK the mcp-server plugin's, fastify
// transport-http's); lines of at most 120 characters.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
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
  return [...text.matchAll(/(?:^|\s)(?:import|export)\s[^'"]*?from\s+'(\.[^']+)'|import\('(\.[^']+)'\)/gm)].map((m) =>
    path.normalize(path.join(path.dirname(file), m[1] ?? m[2]!)),
  );
}

/** Specifiers a module loads when it is imported: static imports and re-exports that are not type-only. */
function valueImports(file: string): string[] {
  const text = readFileSync(path.join(REPO_ROOT, file), 'utf8');
  return [...text.matchAll(/^(import|export)\s+(type\s)?([^'";(=]*?)\s*(?:from\s+)?'([^']+)';/gm)]
    .filter(
      (m) =>
        m[2] === undefined &&
        !(
          m[3] !== undefined &&
          /^\{[^}]*\}$/.test(m[3].trim()) &&
          m[3]
            .trim()
            .slice(1, -1)
            .split(',')
            .map((x) => x.trim())
            .filter(Boolean)
            .every((x) => x.startsWith('type '))
        ),
    )
    .map((m) => m[4]!);
}

/** Package specifiers a module names anywhere (static, type-only and dynamic imports). */
function packageImports(file: string): string[] {
  const text = readFileSync(path.join(REPO_ROOT, file), 'utf8');
  return [...text.matchAll(/(?:from\s+|import\(\s*|^import\s+)'([^.'][^']*)'/gm)]
    .map((m) => m[1]!)
    .filter((s) => !s.startsWith('node:'));
}

/** The strongly connected components of more than one module (or a module importing itself): Tarjan. */
function cycles(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!edges.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (edges.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return found;
}

const violations = (files: string[], allowed: (file: string, target: string) => boolean): string[] =>
  files.flatMap((file) =>
    relativeImports(file)
      .filter((target) => !allowed(file, target))
      .map((target) => `${file} → ${target}`),
  );

/**
 * registry/ is the distribution's registry library (git registries, manifests, adding and trusting
 * plugins); the registry-commands plugin is its command line and may import it — but not
 * registry/bundled.ts or the entries, which import the plugins.
 */
const REGISTRY_LIBRARY_USERS = new Set(['plugins/registry-commands']);
const registryLibrary = (file: string, target: string): boolean =>
  REGISTRY_LIBRARY_USERS.has(path.dirname(file)) &&
  target.startsWith('registry/') &&
  !['registry/bundled.ts', 'registry/cli.ts', 'registry/index.ts'].includes(target);

/** The public API: the whole (core/index.ts, the package's main) and its light entries (ADR 0130). */
const PUBLIC_ENTRIES = [
  'core/index.ts',
  'core/api/plugin.ts',
  'core/api/algorithms.ts',
  'core/api/use-cases.ts',
  'core/api/host.ts',
  'core/api/engine.ts',
];

it('core/ imports nothing from plugins/ or registry/', () => {
  const bad = violations(sourceFiles('core'), (_file, target) => target.startsWith('core/'));
  assert.deepEqual(bad, []);
});

/**
 * A plugin's contract entry (ADR 0160): types, the hooks it owns, service refs; what other plugins may import of it.
 */
const isContractEntry = (target: string): boolean => /^plugins\/[^/]+\/api\.ts$/.test(target);

it(
  "a plugin imports only the public API (core/index.ts and its light entries), its own files and other plugins' " +
    'api.ts',
  () => {
    const plugins = readdirSync(path.join(REPO_ROOT, 'plugins'));
    assert.ok(plugins.length > 0);
    const bad = plugins.flatMap((name) => {
      const own = `plugins/${name}/`;
      return violations(
        sourceFiles(`plugins/${name}`),
        (file, target) =>
          target.startsWith(own) ||
          PUBLIC_ENTRIES.includes(target) ||
          isContractEntry(target) ||
          registryLibrary(file, target),
      );
    });
    assert.deepEqual(bad, []);
  },
);

/**
 * What a contract entry loads, as `file → target` for each import it may not make: packages but tapable,
 * core/ but its plugin entry, other plugins' files but their contract entries. Its own plugin's files
 * are followed (the cli plugin's entry re-exports its table and progress helpers), held to the same rule.
 */
function heavyImports(entry: string): string[] {
  const own = `${path.dirname(entry)}/`;
  const seen = new Set<string>();
  const bad: string[] = [];
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const t of valueImports(file)) {
      if (!t.startsWith('.')) {
        if (t !== 'tapable' && !t.startsWith('node:')) bad.push(`${file} → ${t}`);
        continue;
      }
      const target = path.normalize(path.join(path.dirname(file), t));
      if (target.startsWith(own) && !isContractEntry(target)) visit(target);
      else if (target !== 'core/api/plugin.ts' && !isContractEntry(target)) bad.push(`${file} → ${target}`);
    }
  };
  visit(entry);
  return bad;
}

it(
  "a contract entry (plugins/<name>/api.ts) is light: it loads only core's plugin entry, other contract entries, " +
    'tapable and own files that do the same',
  () => {
    const entries = readdirSync(path.join(REPO_ROOT, 'plugins'))
      .map((name) => `plugins/${name}/api.ts`)
      .filter((f) => existsSync(path.join(REPO_ROOT, f)));
    assert.ok(entries.includes('plugins/transport-http/api.ts') && entries.includes('plugins/cli/api.ts'));
    assert.deepEqual(entries.flatMap(heavyImports), []);
  },
);

/** The transport and CLI packages core/ may not import (the plugins that own them do), by import prefix. */
const PLUGIN_PACKAGES = ['commander', '@modelcontextprotocol/', 'fastify', '@fastify/'] as const;

it('core/ imports no fastify, commander or MCP SDK (types included)', () => {
  const bad = sourceFiles('core').flatMap((file) =>
    packageImports(file)
      .filter((pkg) => PLUGIN_PACKAGES.some((p) => pkg === p || pkg.startsWith(p.endsWith('/') ? p : `${p}/`)))
      .map((pkg) => `${file} → ${pkg}`),
  );
  assert.deepEqual(bad, []);
  assert.deepEqual(
    packageImports('core/hooks.ts').filter((p) => p !== 'tapable'),
    [],
    'the hooks (the commands hook types its program structurally)',
  );
});

it(
  'no value-level import cycle among core/, plugins/ and registry/ ' +
    '(static imports; `import type` and import() excluded)',
  () => {
    const files = [...sourceFiles('core'), ...sourceFiles('plugins'), ...sourceFiles('registry')].filter((f) =>
      f.endsWith('.ts'),
    );
    const edges = new Map(
      files.map((f) => [
        f,
        valueImports(f)
          .filter((t) => t.startsWith('.'))
          .map((t) => path.normalize(path.join(path.dirname(f), t))),
      ]),
    );
    assert.deepEqual(cycles(edges), []);
  },
);

it('core/ reaches its own modules directly, never through the public API entries (they load them all)', () => {
  // core/index.ts re-exports its light entries (the library's entry, registry/lib/index.ts, re-exports it).
  const reexports = new Set(['core/index.ts']);
  const bad = violations(
    sourceFiles('core').filter((f) => !reexports.has(f)),
    (_file, target) => !PUBLIC_ENTRIES.includes(target),
  );
  assert.deepEqual(bad, []);
});

it("the top level is the card's: core, plugins, registry, config, test (no src/)", () => {
  for (const dir of ['core', 'plugins', 'registry', 'config', 'test'])
    assert.ok(existsSync(path.join(REPO_ROOT, dir)), dir);
  assert.equal(existsSync(path.join(REPO_ROOT, 'src')), false);
  const colocated = ['core', 'plugins'].flatMap((dir) =>
    readdirSync(path.join(REPO_ROOT, dir), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => `${dir}/${f}`),
  );
  assert.deepEqual(colocated, [], 'tests live under test/, mirroring core/ and plugins/');
});

/**
 * Issue 30: the kernel proper (core/*.ts and core/load/*.ts, as `cat … | wc -l` counts them) stays under 2,000 lines.
 */
const KERNEL_PROPER_MAX_LINES = 2000;

it(`the kernel proper (core/*.ts, core/load/*.ts) is under ${KERNEL_PROPER_MAX_LINES} lines`, () => {
  const files = ['core', 'core/load'].flatMap((dir) =>
    readdirSync(path.join(REPO_ROOT, dir))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => path.join(dir, f)),
  );
  assert.ok(files.includes('core/kernel.ts') && files.includes('core/load/load-plugins.ts'));
  const lines = files.reduce(
    (n, f) => n + (readFileSync(path.join(REPO_ROOT, f), 'utf8').match(/\n/g) ?? []).length,
    0,
  );
  assert.ok(
    lines < KERNEL_PROPER_MAX_LINES,
    `${lines} lines: move what is not the kernel (a slot's values, a plugin's feature) out of core/*.ts and core/load/`,
  );
});

/**
 * Issue 30: no tracked .ts line is wider than 120 characters (code points), strings, templates, regular expressions
 * and comments included (docs/formatting.md), with no exceptions.
 */
const MAX_LINE = 120;

it(`no tracked .ts line is longer than ${MAX_LINE} characters`, () => {
  const files = execFileSync('git', ['ls-files', '-z', '--', '*.ts'], { cwd: REPO_ROOT, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f !== '');
  assert.ok(files.includes('core/kernel.ts'), 'git ls-files lists the sources');
  const wide = files.flatMap((f) =>
    readFileSync(path.join(REPO_ROOT, f), 'utf8')
      .split('\n')
      .flatMap((line, i) => ([...line].length > MAX_LINE ? [`${f}:${i + 1} (${[...line].length})`] : [])),
  );
  assert.deepEqual(wide, [], 'wrap them: split strings with +, break templates and comments (docs/formatting.md)');
});

/**
 * Issue 30 (ADR 0238, 0254): the built-in tools' answers are tools-builtin's, the agent registry, its collection and
 * the agents' types agents-inline's and the `kbctx.serve` contract the cli plugin's; core keeps only what the `agents`
 * hook names (`PluginAgentDef`, in tools/part-defs.ts).
 */
it("core/ holds no agents, built-in answers or serve state (they are plugins')", () => {
  const moved = [
    'core/app/wire.ts',
    'core/app/sources.ts',
    'core/app/documents.ts',
    'core/app/serve-service.ts',
    'core/app/agents.ts',
  ];
  assert.deepEqual(
    moved.filter((f) => existsSync(path.join(REPO_ROOT, f))),
    [],
  );
});

it('the rule reader sees imports (guards the test itself)', () => {
  assert.ok(relativeImports('plugins/tools-builtin/index.ts').includes('core/api/plugin.ts'));
  assert.ok(
    relativeImports('plugins/mcp-stdio/index.ts').includes('plugins/mcp-stdio/mcp-stdio.ts'),
    'dynamic import()',
  );
  assert.ok(relativeImports('core/kernel.ts').includes('core/hooks.ts'));
  assert.ok(
    valueImports('core/kernel.ts').includes('./hooks.ts') && !valueImports('core/kernel.ts').includes('./plugin.ts'),
    'type-only imports are not value imports',
  );
  assert.ok(packageImports('plugins/cli/run-cli.ts').includes('commander'));
  assert.ok(
    ['plugins/cli/run-cli.ts → commander', 'plugins/cli/run-cli.ts → core/api/host.ts'].every((i) =>
      heavyImports('plugins/cli/run-cli.ts').includes(i),
    ),
    'the contract-entry walk sees packages and core modules',
  );
  assert.deepEqual(
    cycles(
      new Map([
        ['a', ['b']],
        ['b', ['a']],
        ['c', ['a']],
      ]),
    ),
    [['a', 'b']],
  );
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
