// `npm run build` (also run by `prepack`): a fresh dist/ with the JavaScript and declaration files
// tsc emits from src/, then every non-TypeScript file under src/ (Lua runner and templates, web
// assets, …) copied to the same place, so a new folder or asset needs no edit here.
import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const src = path.join(root, 'src');
const dist = path.join(root, 'dist');

rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { stdio: ['ignore', process.stderr, process.stderr] }); // stdout stays clean for `npm pack --json`

let copied = 0;
for (const rel of readdirSync(src, { recursive: true, encoding: 'utf8' })) {
  const from = path.join(src, rel);
  if (rel.endsWith('.ts') || !statSync(from).isFile()) continue;
  cpSync(from, path.join(dist, rel));
  copied++;
}
console.error(`built dist/ (tsc) and copied ${copied} asset files from src/`);
