// A log that does not write one line per repeat: the first line of a kind is written at once, the
// same kind again within `windowMs` is only counted, and the count is written as one summary line
// when the window ends (or on close). At most two lines per kind per window, however many clients
// send the same bad request; the number of kinds tracked at once is capped too.

export interface SummarisedLog {
  /** Writes `line` now, or counts it when a line of `kind` was written in the current window. */
  write(kind: string, line: string): void;
  /** Writes the pending summaries and stops the timers. */
  close(): void;
}

export interface SummaryOptions {
  /** How long repeats of a kind are counted after its line (ms). */
  windowMs: number;
  /** Kinds tracked at once; any further kind is counted as "other". */
  maxKinds: number;
  /** Prefix of the summary line (`mcp: 49 more like this …`). */
  prefix: string;
}

interface Window {
  repeats: number;
  timer: NodeJS.Timeout;
}

export function createSummarisedLog(log: (line: string) => void, options: SummaryOptions): SummarisedLog {
  const windows = new Map<string, Window>();
  const end = (kind: string, window: Window): void => {
    clearTimeout(window.timer);
    windows.delete(kind);
    if (window.repeats > 0) {
      log(
        `${options.prefix}${window.repeats} more like this in the last ${options.windowMs / 1000} s (${kind}); ` +
          `the first was logged above`,
      );
    }
  };
  return {
    write(kind, line) {
      const key = windows.has(kind) || windows.size < options.maxKinds ? kind : 'other';
      const open = windows.get(key);
      if (open) {
        open.repeats++;
        return;
      }
      log(line);
      const window: Window = { repeats: 0, timer: setTimeout(() => end(key, window), options.windowMs) };
      window.timer.unref(); // a pending summary never keeps the process alive
      windows.set(key, window);
    },
    close() {
      for (const [kind, window] of [...windows]) end(kind, window);
    },
  };
}
