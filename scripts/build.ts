// `npm run build` (also run by `prepack`): a fresh dist/ with the JavaScript and declaration files
// tsc emits from the source trees, then every non-TypeScript file under them (Lua runner and templates, web
// assets, …) copied to the same place, so a new folder or asset needs no edit here.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
/** The source trees built into dist/<tree>/ (tsc's rootDir is the repository). */
const TREES = ['core', 'plugins', 'registry'];
const dist = path.join(root, 'dist');

rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], {
  stdio: ['ignore', process.stderr, process.stderr],
}); // stdout stays clean for `npm pack --json`

let copied = 0;
for (const tree of TREES.filter((t) => existsSync(path.join(root, t)))) {
  for (const rel of readdirSync(path.join(root, tree), { recursive: true, encoding: 'utf8' })) {
    const from = path.join(root, tree, rel);
    if (rel.endsWith('.ts') || !statSync(from).isFile()) continue;
    cpSync(from, path.join(dist, tree, rel));
    copied++;
  }
}
console.error(`built dist/ (tsc) and copied ${copied} asset files from ${TREES.join(', ')}`);
