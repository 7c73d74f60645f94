// Plain-text tables for terminal output: left-aligned text, right-aligned numbers.

/** `width` and `shrink`: the column (index) cut with '…' so that each line fits in `width` characters. */
export interface TableFit {
  width: number;
  shrink: number;
}

export function formatTable(
  headers: readonly string[],
  rows: readonly (readonly (string | number)[])[],
  fit?: TableFit,
): string {
  const cells = [headers.map(String), ...rows.map((r) => r.map(String))];
  const numeric = headers.map((_, i) => rows.length > 0 && rows.every((r) => typeof r[i] === 'number'));
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  if (fit && widths[fit.shrink] !== undefined) {
    const others = widths.reduce((sum, w, i) => sum + (i === fit.shrink ? 0 : w + 2), 0);
    const room = Math.max(headers[fit.shrink]?.length ?? 1, fit.width - others);
    widths[fit.shrink] = Math.min(widths[fit.shrink] ?? 0, room);
    for (const r of cells) {
      const cell = r[fit.shrink] ?? '';
      if (cell.length > room) r[fit.shrink] = `${cell.slice(0, room - 1)}…`;
    }
  }
  const line = (r: readonly string[]): string =>
    r
      .map((cell, i) => (numeric[i] ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(cells[0] ?? []), ...cells.slice(1).map(line)].join('\n') + '\n';
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}
