// Sync and export progress on stderr: on a terminal, a redrawn bar per task (a connector, or the export)
// with rate and ETA; otherwise (unless `lines` is off) a plain line every few seconds (progress-lines.ts).
// Summary lines are the output.
import type { SyncProgress } from '../../core/api/engine.ts';
import { createProgressLines, rateAndEta } from './progress-lines.ts';

export interface ProgressOptions {
  /** Plain periodic lines when not interactive (default true). */
  lines?: boolean;
  everyMs?: number | undefined;
  /** Prefix of the plain lines (default `sync`). */
  label?: string;
}

/** The plain-line interval: KBCTX_PROGRESS_INTERVAL_MS when set (tests use a few ms), else the default. */
export function progressEveryMs(env: NodeJS.ProcessEnv): number | undefined {
  const ms = Number(env['KBCTX_PROGRESS_INTERVAL_MS']);
  return Number.isInteger(ms) && ms > 0 ? ms : undefined;
}

export function createProgress(
  interactive: boolean,
  write: (text: string) => void,
  options: ProgressOptions = {},
): { update(p: SyncProgress): void; done(): void } {
  const state = new Map<string, SyncProgress & { started: number }>();
  const line = (p: SyncProgress & { started: number }): string => {
    const ratio = p.total === 0 ? 1 : p.done / p.total;
    return (
      `${p.done}/${p.total} (${Math.round(ratio * 100)}%)  ` +
      `${rateAndEta(p.done, p.total, (Date.now() - p.started) / 1000)}`
    );
  };
  const track = (p: SyncProgress): SyncProgress & { started: number } => {
    const entry = { ...p, started: state.get(p.connector)?.started ?? Date.now() };
    state.set(p.connector, entry);
    return entry;
  };
  if (!interactive) {
    if (options.lines === false) return { update: () => undefined, done: () => undefined };
    const started = Date.now();
    const label = options.label ?? 'sync';
    const lines = createProgressLines(
      write,
      () => {
        if (state.size === 0) return `${label}: scanning… (${Math.round((Date.now() - started) / 1000)}s)`;
        return [...state.values()].map((p) => `${label}: ${p.connector} ${line(p)}`).join('\n');
      },
      options.everyMs,
    );
    return { update: (p) => void track(p), done: () => lines.stop() };
  }
  let last = 0;
  let drawn = 0;
  const draw = (): void => {
    const lines = [...state.values()].map((p) => {
      const filled = Math.round((p.total === 0 ? 1 : p.done / p.total) * 24);
      return (
        `${p.connector.padEnd(24)} [${'#'.repeat(filled)}${'.'.repeat(24 - filled)}] ` +
        `${line(p).replace(/ \(\d+%\)/, '')}`
      );
    });
    write(`${drawn > 0 ? `\x1b[${drawn}A` : ''}${lines.map((l) => `\x1b[2K${l}`).join('\n')}\n`);
    drawn = lines.length;
  };
  return {
    update(p) {
      track(p);
      const now = Date.now();
      if (now - last > 80 || p.done === p.total) {
        last = now;
        draw();
      }
    },
    done() {
      if (drawn > 0) draw();
    },
  };
}
