// Small statistics helpers for benchmarks: percentiles and medians of repeated runs.
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? NaN;
}

export const median = (values: readonly number[]): number => percentile(values, 50);

export const fmtMs = (ms: number): string => (ms < 10 ? ms.toFixed(3) : ms.toFixed(1));
