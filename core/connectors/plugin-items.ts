// A plugin connector's items (`PluginItem`, the simple form's contract; a Lua script's are the same table) checked
// one by one: a bad item is skipped with a warning naming its index, the rest go on; timestamps normalised to ISO 8601
// UTC, `metadata_json` parsed. What a scan returns around them (a checkpoint, deletions) is the caller's.
import type { ScanEntry } from './connector.ts';
import type { SourceItem } from '../domain/models.ts';
import { asString } from '../domain/loose-values.ts';

/** The entries of the items that pass; `warn` gets one line per skipped or repaired item. */
export function toScanEntries(items: readonly unknown[], warn: (message: string) => void): ScanEntry[] {
  const entries: ScanEntry[] = [];
  items.forEach((value, i) => {
    const item = toItem(value, i + 1, warn);
    if (!item) return;
    const loaded = { kind: 'item' as const, item: item.item };
    entries.push({
      sourceId: item.item.sourceId,
      source: item.source,
      fingerprint: null,
      load: () => Promise.resolve(loaded),
    });
  });
  return entries;
}

function toItem(
  value: unknown,
  index: number,
  warn: (message: string) => void,
): { item: SourceItem; source: string | undefined } | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    warn(`item ${index} skipped: not a table`);
    return null;
  }
  const v = value as Record<string, unknown>;
  const sourceId = asString(v['source_id']);
  if (sourceId === undefined || sourceId === '') {
    warn(`item ${index} skipped: missing source_id`);
    return null;
  }
  const body = asString(v['body']);
  if (body === undefined || body.trim() === '') {
    warn(`item ${index} (${sourceId}) skipped: missing or empty body`);
    return null;
  }
  const metadata = parseMetadata(v['metadata_json'], `item ${index} (${sourceId})`, warn);
  const author = asString(v['author']);
  if (author !== undefined) metadata['author'] = author;
  const created = v['created_at'] === undefined ? undefined : toIsoTime(v['created_at']);
  if (created) metadata['created_at'] = created;
  const updated = v['updated_at'] === undefined ? undefined : toIsoTime(v['updated_at']);
  if (v['updated_at'] !== undefined && !updated)
    warn(`item ${index} (${sourceId}): updated_at ${JSON.stringify(v['updated_at'])} is not a timestamp; using now`);
  const item: SourceItem = {
    sourceId,
    title: asString(v['title']),
    body,
    sourceUrl: asString(v['source_url']),
    updatedAt: updated ?? new Date().toISOString(),
    contentType: asString(v['content_type']) ?? 'text/plain',
    metadata,
  };
  return { item, source: asString(v['source']) };
}

function parseMetadata(raw: unknown, where: string, warn: (message: string) => void): Record<string, unknown> {
  if (raw === undefined) return {};
  try {
    const parsed: unknown = typeof raw === 'string' ? JSON.parse(raw) : raw;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      return { ...(parsed as Record<string, unknown>) };
  } catch {
    // reported below
  }
  warn(`${where}: metadata_json is not a JSON object; ignored`);
  return {};
}

/** RFC 3339, `YYYY-MM-DDTHH:MM:SS`, `YYYY-MM-DD HH:MM:SS` (both UTC) or unix seconds → ISO 8601 UTC. */
export function toIsoTime(value: unknown): string | undefined {
  let date: Date | undefined;
  if (typeof value === 'number' && Number.isFinite(value)) date = new Date(value * 1000);
  else if (typeof value === 'string') {
    const s = value.trim();
    if (/^\d+(\.\d+)?$/.test(s)) date = new Date(Number(s) * 1000);
    else if (/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?$/.test(s)) date = new Date(`${s.replace(' ', 'T')}Z`);
    else if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(s)) date = new Date(s);
    else if (/^\d{4}-\d{2}-\d{2}$/.test(s)) date = new Date(`${s}T00:00:00Z`);
  }
  return date && !Number.isNaN(date.getTime()) ? date.toISOString() : undefined;
}
