// Embedding progress on stderr: on a terminal, a redrawn bar with count, rate and ETA; otherwise
// (unless `lines` is off) a plain line every few seconds. The summary line is the plain output.
import type { EmbedProgress } from '../../core/api/engine.ts';
import { createProgressLines, rateAndEta } from './progress-lines.ts';
import type { ProgressOptions } from './progress.ts';

export function createEmbedProgress(
  interactive: boolean,
  write: (text: string) => void,
  options: ProgressOptions = {},
): { update(p: EmbedProgress): void; done(): void } {
  const started = Date.now();
  if (!interactive) {
    if (options.lines === false) return { update: () => undefined, done: () => undefined };
    let latest: EmbedProgress | null = null;
    const lines = createProgressLines(
      write,
      () =>
        latest
          ? `embed: ${latest.done}/${latest.total}  ` +
            `${rateAndEta(latest.done, latest.total, (Date.now() - started) / 1000)}`
          : null,
      options.everyMs,
    );
    return { update: (p) => void (latest = p), done: () => lines.stop() };
  }
  let last = 0;
  let shown: EmbedProgress | null = null;
  const draw = (p: EmbedProgress): void => {
    const filled = Math.round((p.total === 0 ? 1 : p.done / p.total) * 30);
    write(
      `\r\x1b[2Kembedding [${'#'.repeat(filled)}${'.'.repeat(30 - filled)}] ${p.done}/${p.total}  ` +
        `${rateAndEta(p.done, p.total, (Date.now() - started) / 1000)}`,
    );
  };
  return {
    update(p) {
      shown = p;
      const now = Date.now();
      if (now - last > 100 || p.done === p.total) {
        last = now;
        draw(p);
      }
    },
    done() {
      if (shown) {
        draw(shown);
        write('\n');
      }
    },
  };
}
