// Include/exclude glob matching on '/'-separated relative paths. Dotfiles match like any other file,
// so what is left out is always left out by an explicit exclude.
import picomatch from 'picomatch';

export interface GlobFilter {
  /** True when the file should be indexed. */
  accepts(relativePath: string): boolean;
  /** True when nothing under this directory can be accepted (an exclude covers it), so the walk can prune it. */
  prunes(relativeDir: string): boolean;
}

export function createGlobFilter(include: readonly string[], exclude: readonly string[]): GlobFilter {
  const options = { dot: true };
  const isIncluded = include.length > 0 ? picomatch([...include], options) : () => true;
  const isExcluded = exclude.length > 0 ? picomatch([...exclude], options) : () => false;
  return {
    accepts: (p) => isIncluded(p) && !isExcluded(p),
    prunes: (dir) => isExcluded(dir) || isExcluded(`${dir}/__kbctx_probe__/__kbctx_probe__`),
  };
}
