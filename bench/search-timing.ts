// Times the search use-case over a query list, uncached: one warm-up pass, then `runs` timed passes,
// each giving a p50 and a p95 (ms). Shared by bench (SciFact) and bench:scale.
import type { SearchParams } from '../core/domain/models.ts';
import { search, type SearchDeps } from '../core/app/search.ts';
import { percentile } from './stats.ts';

export async function timeSearches(
  deps: SearchDeps,
  params: readonly SearchParams[],
  runs: number,
): Promise<{ p50s: number[]; p95s: number[] }> {
  const uncached = { ...deps, cache: undefined }; // measure the search, not the response cache
  for (const p of params) await search(uncached, p); // warm-up (statements prepared, postings loaded)
  const p50s: number[] = [];
  const p95s: number[] = [];
  for (let run = 0; run < runs; run++) {
    const times: number[] = [];
    for (const p of params) {
      const t = performance.now();
      await search(uncached, p);
      times.push(performance.now() - t);
    }
    p50s.push(percentile(times, 50));
    p95s.push(percentile(times, 95));
  }
  return { p50s, p95s };
}
