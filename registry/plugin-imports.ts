// The files outside a registry plugin's folder that its modules load, for its pin (ADR 0122): a pin of
// the folder alone let a changed `../../shared/util.ts` run without a re-trust.
// 1. Scan every JavaScript/TypeScript module of the folder for specifiers after `from`, `import`,
//    `import(` and `require(` in quotes (static imports, `export … from`, side-effect imports, literal
//    dynamic imports, require calls).
// 2. Keep those that name a file (`./`, `../`, `/`, `file:`); bare specifiers (packages, `node:`) and
//    anything under node_modules are not followed.
// 3. Resolve each as Node would find it (the name as written, else with a module extension or as a
//    folder's index), against the importing file's real location (Node follows symbolic links).
// 4. Files outside the folder are the result; modules among them are scanned in turn (step 1).
// Over-inclusive on purpose: a match in a comment or a string counts, a missing file is skipped, so
// whatever may run is pinned. A computed specifier (`import(base + x)`) cannot be seen: ADR 0122.
import { readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { relativeInside } from '../core/config/relative-inside.ts';

const MODULE = /\.(ts|mts|cts|js|mjs|cjs|tsx|jsx)$/;
const SPECIFIER = /\b(?:from|import|require)\s*\(?\s*(['"`])([^'"`\r\n]+?)\1/g;
const EXTENSIONS = ['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs', '.json'];

export const isModuleFile = (file: string): boolean => MODULE.test(file);

/**
 * Files outside `folder` that `modules` (files of the folder, with their bytes) import, directly or through each other,
 * with their bytes.
 */
export function importedOutside(
  folder: string,
  modules: readonly { file: string; bytes: Buffer }[],
): Map<string, Buffer> {
  const root = realpathSync(folder);
  const outside = new Map<string, Buffer>();
  const queue = [...modules];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const from = path.dirname(realpath(next.file));
    for (const file of specifiers(next.bytes.toString('utf8')).flatMap((s) => resolveFile(s, from))) {
      if (outside.has(file) || relativeInside(root, file) !== null || relativeInside(folder, file) !== null) continue;
      const bytes = readFileSync(file);
      outside.set(file, bytes);
      if (isModuleFile(file)) queue.push({ file, bytes });
    }
  }
  return outside;
}

function specifiers(text: string): string[] {
  return [...text.matchAll(SPECIFIER)].map((m) => m[2] ?? '');
}

/** The existing files a specifier may load (none for a package or a missing file). */
function resolveFile(specifier: string, from: string): string[] {
  const bare = specifier.split(/[?#]/)[0] ?? '';
  let target: string;
  if (bare.startsWith('file:')) {
    try {
      target = fileURLToPath(bare);
    } catch {
      return [];
    }
  } else if (bare.startsWith('./') || bare.startsWith('../') || bare.startsWith('/')) target = path.resolve(from, bare);
  else return [];
  if (target.split(path.sep).includes('node_modules')) return [];
  if (isFile(target)) return [realpath(target)];
  const candidates = [
    ...EXTENSIONS.map((e) => `${target}${e}`),
    ...EXTENSIONS.map((e) => path.join(target, `index${e}`)),
  ];
  return candidates.filter(isFile).map(realpath);
}

const isFile = (file: string): boolean => statSync(file, { throwIfNoEntry: false })?.isFile() ?? false;

function realpath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}
