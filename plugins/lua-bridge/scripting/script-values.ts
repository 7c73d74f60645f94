// What crosses between a script part and the kernel's contracts: its config section as the script sees it (plain
// JSON), and what a script connector's `scan` returns (`{items, checkpoint, deleted}`) as a ScanResult, its items
// checked by the connector contract's item check (a bad item is skipped with a warning), the checkpoint kept as JSON.
import { asArray, asString, toScanEntries, type ScanResult } from '../../../core/index.ts';

export interface RawScan {
  items?: unknown;
  checkpoint?: unknown;
  deleted?: unknown;
}

export function toScanResult(raw: RawScan, label: string, warn: (message: string) => void): ScanResult {
  const hasCheckpoint = raw.checkpoint !== undefined && raw.checkpoint !== null;
  return {
    entries: toScanEntries(asArray(raw.items, `${label}: scan() items`), warn),
    // Without a checkpoint the script listed everything it has: what it did not list is gone.
    complete: !hasCheckpoint,
    deleted: asArray(raw.deleted, `${label}: scan() deleted ids`)
      .map(asString)
      .filter((s): s is string => s !== undefined),
    checkpoint: hasCheckpoint ? JSON.stringify(raw.checkpoint) : null,
  };
}

/** The checkpoint as the script returned it last time (JSON text back to a value). */
export function parseCheckpoint(stored: string | null): unknown {
  if (stored === null) return null;
  try {
    return JSON.parse(stored);
  } catch {
    return stored;
  }
}

/** A config section as the script sees it: plain JSON (TOML dates become strings). */
export function toScriptConfig(extra: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(extra)) as Record<string, unknown>;
}
