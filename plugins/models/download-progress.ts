// Fetch progress on stderr: on a terminal a redrawn bar (bytes, rate, ETA); otherwise a plain line
// every few seconds (KBCTX_PROGRESS_INTERVAL_MS in tests), as `sync` does, plus a first and last line.
import { createProgressLines, formatBytes, formatDuration } from '../cli/api.ts';

export interface DownloadProgress {
  start(id: string, totalBytes: number, files: number): void;
  /** Bytes on disk of one file so far. */
  file(path: string, done: number): void;
  note(text: string): void;
  done(summary: string): void;
  /** Stops the timer (also after a failure); idempotent. */
  stop(): void;
}

export function createDownloadProgress(
  interactive: boolean,
  write: (text: string) => void,
  everyMs?: number,
): DownloadProgress {
  const perFile = new Map<string, number>();
  let id = '';
  let total = 0;
  let started = 0;
  let startBytes = 0;
  let lines: { stop(): void } | null = null;
  let last = 0;
  const done = (): number => [...perFile.values()].reduce((a, b) => a + b, 0);
  const describe = (): string => {
    const bytes = done();
    const seconds = (Date.now() - started) / 1000;
    const rate = seconds > 0 ? (bytes - startBytes) / seconds : 0;
    const eta = rate > 0 ? formatDuration((total - bytes) / rate) : '?';
    const percent = total > 0 ? ` (${Math.floor((bytes / total) * 100)}%)` : '';
    return `${formatBytes(bytes)}/${formatBytes(total)}${percent}  ${formatBytes(Math.round(rate))}/s  ETA ${eta}`;
  };
  const bar = (): void => {
    const filled = total > 0 ? Math.round((done() / total) * 30) : 0;
    write(`\r\x1b[2K${id} [${'#'.repeat(filled)}${'.'.repeat(30 - filled)}] ${describe()}`);
  };
  return {
    start(model, totalBytes, files) {
      id = model;
      total = totalBytes;
      started = Date.now();
      write(`models: fetching ${model} (${files} file(s), ${formatBytes(totalBytes)})\n`);
      if (!interactive) lines = createProgressLines(write, () => `models: ${id} ${describe()}`, everyMs);
    },
    file(path, bytes) {
      if (!perFile.has(path)) startBytes += bytes; // resumed bytes do not count towards the rate
      perFile.set(path, bytes);
      const now = Date.now();
      if (interactive && now - last > 100) {
        last = now;
        bar();
      }
    },
    note: (text) => write(`models: ${text}\n`),
    done(summary) {
      this.stop();
      write(`models: ${summary}\n`);
    },
    stop() {
      lines?.stop();
      lines = null;
      if (interactive && started > 0 && last > 0) write('\n');
      last = 0;
    },
  };
}
