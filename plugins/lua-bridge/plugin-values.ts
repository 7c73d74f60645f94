// Values between the kernel's hooks and a `.lua` plugin. Only JSON crosses; Lua has no null and no
// empty array, so a returned table is read as changes: a field the handler left nil keeps its value,
// a returned hit is completed from the hit with the same `id`, and an empty table is an empty list.
import { type Hit, KbctxError } from '../../core/api/plugin.ts';

export const toJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value ?? null)) as unknown;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** nil (no change) → undefined; a table → its fields; anything else is the handler's error. */
export function toRecord(value: unknown, where: string): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value))
    throw new KbctxError('script_error', `${where} must return a table (or nil for no change), got ${typeof value}`);
  return value;
}

export const withChanges = <T extends object>(original: T, changes: Record<string, unknown> | undefined): T =>
  changes ? { ...original, ...changes } : original;

export function toHits(original: readonly Hit[], value: unknown, where: string): Hit[] {
  if (value === undefined || value === null) return [...original];
  if (isRecord(value) && Object.keys(value).length === 0) return [];
  if (!Array.isArray(value))
    throw new KbctxError('script_error', `${where} must return a list of hits (or nil for no change)`);
  const byId = new Map(original.map((hit) => [hit.id, hit]));
  return value.map((hit, i) => {
    if (!isRecord(hit) || typeof hit['id'] !== 'string')
      throw new KbctxError('script_error', `${where}: hit ${i + 1} must be a table with an \`id\``);
    return { ...byId.get(hit['id']), ...hit } as Hit;
  });
}
