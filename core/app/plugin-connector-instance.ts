// A connector instance in the simple form (a plugin's `{scan(ctx)}`, an extension's registered type
// through its adapter): one call of `scan({signal, name})` per sync, drained under the deadline; items
// checked by the contract's item check (a bad item is skipped with a warning). The listing is complete:
// what is missing is deleted.
import type { Connector, ScanOptions, ScanResult } from '../connectors/connector.ts';
import { toScanEntries } from '../connectors/plugin-items.ts';
import type { PluginItem } from '../connectors/connector.ts';
import { runWithDeadline } from './run-with-deadline.ts';
import { KbctxError } from '../domain/errors.ts';

/** A plugin part's fault (a connector's, a tool's, an agent's): script_error, as a script's. */
export const invalid = (message: string): KbctxError => new KbctxError('script_error', message);

export interface ConnectorSpec {
  type: string;
  timeout?: number | undefined;
  scan(ctx: { signal: AbortSignal; name: string }): AsyncIterable<PluginItem> | Iterable<PluginItem>;
}

export class ConnectorSpecInstance implements Connector {
  readonly label: string;
  readonly type: string;
  private readonly name: string;
  private readonly def: ConnectorSpec;
  private readonly timeoutSecs: number;
  private readonly warn: (message: string) => void;

  constructor(def: ConnectorSpec, name: string, timeoutSecs: number, warn: (message: string) => void) {
    this.type = def.type;
    this.label = `${def.type}:${name}`;
    this.name = name;
    this.def = def;
    this.timeoutSecs = def.timeout ?? timeoutSecs;
    this.warn = warn;
  }

  /** Rejects with timeout / script_error when `scan` throws or overruns; nothing is deleted then. */
  scan(options: ScanOptions): Promise<ScanResult> {
    return runWithDeadline(this.label, this.timeoutSecs, options.signal, async (signal) => {
      const listing = this.def.scan({ signal, name: this.name });
      if (
        listing === null ||
        typeof listing !== 'object' ||
        !(Symbol.asyncIterator in listing || Symbol.iterator in listing)
      ) {
        throw invalid(`${this.label}: scan must return an (async) iterable of items`);
      }
      const items: PluginItem[] = [];
      for await (const item of listing) {
        signal.throwIfAborted();
        items.push(item);
      }
      const entries = toScanEntries(items, (message) => this.warn(`${this.label}: ${message}`));
      return { entries, complete: true, deleted: [], checkpoint: null };
    });
  }
}
