// "Did you mean …?" for a misspelt name (a hook, a handler): the known name nearest by edit distance,
// when it is near enough to be a typo. Pure; for error paths only (quadratic in the names' lengths).

/**
 * The candidate within a typo's reach of `name` (at most 2 edits, and fewer than a third of its length), or undefined.
 */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  const reach = Math.min(2, Math.max(1, Math.floor(name.length / 3)));
  let best: string | undefined;
  let bestDistance = reach + 1;
  for (const candidate of candidates) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}

/** `; did you mean 'x'?` for the closest candidate, or '' when none is close. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const closest = closestName(name, candidates);
  return closest === undefined ? '' : `; did you mean '${closest}'?`;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of two neighbours cost 1. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i]!;
    const above = rows[i - 1]!;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(above[j]! + 1, row[j - 1]! + 1, above[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j]!, rows[i - 2]![j - 2]! + 1);
    }
  }
  return rows[a.length]![b.length]!;
}
