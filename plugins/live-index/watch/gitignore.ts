// The root `.gitignore` of a watched folder as a predicate on directories, so build output and
// dependency folders (node_modules …) cost no watches. Nested .gitignore files are not read.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ignore from 'ignore';

/** True when the root .gitignore ignores this directory ('/'-separated, relative to the root). */
export function loadGitignore(root: string): (relativeDir: string) => boolean {
  let text: string;
  try {
    text = readFileSync(path.join(root, '.gitignore'), 'utf8');
  } catch {
    return () => false;
  }
  const rules = ignore().add(text);
  return (relativeDir) => rules.ignores(`${relativeDir}/`);
}
