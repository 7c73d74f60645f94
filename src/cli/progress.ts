// Sync progress on stderr: a redrawn bar per connector on a terminal, nothing in between otherwise
// (the per-connector summary lines are the plain output).
import type { SyncProgress } from '../app/sync.ts';

export function createProgress(interactive: boolean, write: (text: string) => void): { update(p: SyncProgress): void; done(): void } {
  if (!interactive) return { update: () => undefined, done: () => undefined };
  const state = new Map<string, SyncProgress>();
  let last = 0;
  let drawn = 0;
  const draw = (): void => {
    const lines = [...state.values()].map((p) => {
      const ratio = p.total === 0 ? 1 : p.done / p.total;
      const filled = Math.round(ratio * 24);
      return `${p.connector.padEnd(24)} [${'#'.repeat(filled)}${'.'.repeat(24 - filled)}] ${p.done}/${p.total}`;
    });
    write(`${drawn > 0 ? `\x1b[${drawn}A` : ''}${lines.map((l) => `\x1b[2K${l}`).join('\n')}\n`);
    drawn = lines.length;
  };
  return {
    update(p) {
      state.set(p.connector, p);
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
