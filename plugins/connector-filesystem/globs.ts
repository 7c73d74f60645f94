// Include/exclude glob matching on '/'-separated relative paths. Dotfiles match like any other file,
// so what is left out is always left out by an explicit exclude. The filesystem connector's include/exclude; the git
// and S3 connectors apply the same (this plugin's api.ts, ADR 0240).
import picomatch from 'picomatch';
import type { GlobFilter } from '../../core/api/plugin.ts';

export function createGlobFilter(include: readonly string[], exclude: readonly string[]): GlobFilter {
  const options = { dot: true };
  const isIncluded = include.length > 0 ? picomatch([...include], options) : () => true;
  const isExcluded = exclude.length > 0 ? picomatch([...exclude], options) : () => false;
  return {
    accepts: (p) => isIncluded(p) && !isExcluded(p),
    prunes: (dir) => isExcluded(dir) || isExcluded(`${dir}/__kbctx_probe__/__kbctx_probe__`),
  };
}
