// A connector instance in the simple form (a plugin's `{scan(ctx)}`, an extension's registered type
// through its adapter): one call of `scan(config, {signal, name})` per sync, drained under the
// deadline; items checked like a Lua connector's (a bad item is skipped with a warning). The listing is
// complete: what is missing is deleted.
import type { Connector, ScanOptions, ScanResult } from '../connectors/connector.ts';
import { toScanResult } from './part-values/scan-items.ts';
import { toScriptConfig } from './part-values/values.ts';
import type { PluginItem } from '../connectors/connector.ts';
import { invalid } from './plugin-tool.ts';
import { runWithDeadline } from './run-with-deadline.ts';

export interface ConnectorSpec {
  type: string;
  timeout?: number | undefined;
  scan(
    config: Record<string, unknown>,
    ctx: { signal: AbortSignal; name: string },
  ): AsyncIterable<PluginItem> | Iterable<PluginItem>;
}

export class ConnectorSpecInstance implements Connector {
  readonly label: string;
  readonly type: string;
  private readonly name: string;
  private readonly def: ConnectorSpec;
  private readonly config: Record<string, unknown>;
  private readonly timeoutSecs: number;
  private readonly warn: (message: string) => void;

  constructor(
    def: ConnectorSpec,
    name: string,
    config: Readonly<Record<string, unknown>>,
    timeoutSecs: number,
    warn: (message: string) => void,
  ) {
    this.type = def.type;
    this.label = `${def.type}:${name}`;
    this.name = name;
    this.def = def;
    this.config = toScriptConfig(config);
    this.timeoutSecs = def.timeout ?? timeoutSecs;
    this.warn = warn;
  }

  /** Rejects with timeout / script_error when `scan` throws or overruns; nothing is deleted then. */
  scan(options: ScanOptions): Promise<ScanResult> {
    return runWithDeadline(this.label, this.timeoutSecs, options.signal, async (signal) => {
      const listing = this.def.scan(this.config, { signal, name: this.name });
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
      return toScanResult({ items }, this.label, (message) => this.warn(`${this.label}: ${message}`));
    });
  }
}
