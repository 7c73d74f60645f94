// The committed retrieval figure `npm run eval` guards (baseline.json): a measured nDCG@10 more than
// `max_drop` below it fails the run. Pure, so that the rule is tested without indexing SciFact.
import { readFileSync } from 'node:fs';

export interface Baseline {
  scifact_train: { keyword: { ndcg_at_10: number } };
  max_drop: number;
}

export const loadBaseline = (): Baseline =>
  JSON.parse(readFileSync(new URL('./baseline.json', import.meta.url), 'utf8')) as Baseline;

/** Null when `measured` is within `maxDrop` of `committed` (or above it); else why not. */
export function baselineProblem(measured: number, committed: number, maxDrop: number): string | null {
  const drop = committed - measured;
  // Compared at 4 decimals, the precision the figures are printed and committed with.
  if (Number(drop.toFixed(4)) <= maxDrop) return null;
  return (
    `keyword nDCG@10 ${measured.toFixed(4)} is ${drop.toFixed(4)} below ` +
    `the committed ${committed.toFixed(4)} (more than ${maxDrop})`
  );
}
