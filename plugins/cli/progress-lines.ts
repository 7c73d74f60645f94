// Progress for a non-terminal stderr (CI logs, pipes): one plain line every few seconds while work
// runs, so long syncs and embeds are never silent. The timer is unref'd and stopped by `stop()`.
export const PROGRESS_LINE_MS = 5000;

/** Writes `describe()` (skipped when null) every `everyMs`. */
export function createProgressLines(
  write: (text: string) => void,
  describe: () => string | null,
  everyMs = PROGRESS_LINE_MS,
): { stop(): void } {
  const timer = setInterval(() => {
    const line = describe();
    if (line !== null) write(`${line}\n`);
  }, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** `12.5/s` and an ETA such as `1m05s` for `done` of `total` after `seconds`. */
export function rateAndEta(done: number, total: number, seconds: number): string {
  const rate = seconds > 0 ? done / seconds : 0;
  return `${rate.toFixed(1)}/s  ETA ${rate > 0 ? formatDuration((total - done) / rate) : '?'}`;
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
