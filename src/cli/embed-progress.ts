// Embedding progress on stderr for a terminal: a redrawn bar with count, rate and ETA. Silent
// otherwise (the summary line is the plain output).
import type { EmbedProgress } from '../app/embed.ts';

export function createEmbedProgress(interactive: boolean, write: (text: string) => void): { update(p: EmbedProgress): void; done(): void } {
  if (!interactive) return { update: () => undefined, done: () => undefined };
  const started = Date.now();
  let last = 0;
  let shown: EmbedProgress | null = null;
  const draw = (p: EmbedProgress): void => {
    const seconds = (Date.now() - started) / 1000;
    const rate = seconds > 0 ? p.done / seconds : 0;
    const eta = rate > 0 ? formatDuration((p.total - p.done) / rate) : '?';
    const filled = Math.round((p.total === 0 ? 1 : p.done / p.total) * 30);
    write(`\r\x1b[2Kembedding [${'#'.repeat(filled)}${'.'.repeat(30 - filled)}] ${p.done}/${p.total}  ${rate.toFixed(1)}/s  ETA ${eta}`);
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

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
