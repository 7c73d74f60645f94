// `npm run format:comments` (node scripts/wrap-comments.ts [--check] [files…]): rewraps the comments the formatter
// leaves wider than 120 columns (docs/formatting.md); code is never changed. Without files: every tracked .ts/.js/.mjs.
// --check writes nothing and exits 1 when a comment would change.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { rewrapComments } from './comments/rewrap.ts';

const WIDTH = 120;
const args = process.argv.slice(2);
const check = args.includes('--check');
const given = args.filter((a) => a !== '--check');
const files =
  given.length > 0
    ? given
    : execFileSync('git', ['ls-files', '-z', '--', '*.ts', '*.js', '*.mjs'], { encoding: 'utf8' })
        .split('\0')
        .filter((f) => f !== '' && !/^(dist|node_modules)\//.test(f));

let changedFiles = 0;
let changedComments = 0;
let failed = 0;
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  try {
    const result = rewrapComments(file, text, WIDTH);
    if (result.changed.length === 0) continue;
    changedFiles++;
    changedComments += result.changed.length;
    if (check) console.log(`${file}: ${result.changed.map((l) => `line ${l}`).join(', ')}`);
    else writeFileSync(file, result.text);
  } catch (error) {
    failed++;
    console.error((error as Error).message);
  }
}
const verb = check ? 'would rewrap' : 'rewrapped';
console.error(`${verb} ${changedComments} comment(s) in ${changedFiles} of ${files.length} file(s)`);
if (failed > 0 || (check && changedFiles > 0)) process.exitCode = 1;
