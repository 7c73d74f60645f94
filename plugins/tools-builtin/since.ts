// Parses a `since` filter value into an ISO 8601 instant: a date (`2026-01-31`, the start of that day
// in UTC), a date-time (`2026-01-31T09:00:00Z`, offsets allowed) or a duration back from `now`
// (`90m`, `12h`, `7d`, `2w`, `1y`). Pure; bad input is a bad_request naming the parameter. The search tool's
// `since`/`until` and `kbctx sync --since` (the cli plugin, through api.ts) read it.
import { badRequest } from '../../core/api/plugin.ts';

const DURATION = /^(\d+)\s*(s|m|min|h|d|w|y)$/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i;
const SECONDS: Record<string, number> = { s: 1, m: 60, min: 60, h: 3600, d: 86_400, w: 604_800, y: 31_536_000 };

export function parseSince(value: string, now: Date = new Date(), parameter = 'since'): string {
  const text = value.trim();
  const duration = DURATION.exec(text);
  if (duration) {
    const seconds = Number(duration[1]) * (SECONDS[duration[2]!.toLowerCase()] ?? 0);
    return new Date(now.getTime() - seconds * 1000).toISOString();
  }
  if (DATE.test(text) || DATE_TIME.test(text)) {
    // A date-time without an offset is read as UTC, like every stored updated_at.
    const iso = DATE.test(text)
      ? `${text}T00:00:00Z`
      : /(Z|[+-]\d{2}:?\d{2})$/i.test(text)
        ? text.replace(' ', 'T')
        : `${text.replace(' ', 'T')}Z`;
    const time = Date.parse(iso);
    if (Number.isFinite(time)) return new Date(time).toISOString();
  }
  throw badRequest(
    `parameter '${parameter}' must be a date (2026-01-31), a date-time (2026-01-31T09:00:00Z) or a duration such ` +
      `as 7d, 12h or 2w; got ${JSON.stringify(value)}`,
    { parameter },
  );
}
