// Script connectors (`[connectors.script.<name>]`, label `script:<name>`): one sandboxed call of
// `connector.scan(config, checkpoint)` per sync; items arrive loaded, so fingerprints are null.
import { KbctxError, type Connector, type ScanOptions, type ScanResult } from '../../../core/index.ts';
import { parseCheckpoint, toScanResult, toScriptConfig, type RawScan } from './script-values.ts';
import { accessSync, constants } from 'node:fs';
import type { LogSink, ScriptRuntime } from './runtime/script-runtime.ts';
import type { ScriptConfig } from '../api.ts';

export class ScriptConnector implements Connector {
  readonly label: string;
  readonly type = 'script';
  private readonly runtime: ScriptRuntime;
  private readonly config: ScriptConfig;
  private readonly log: LogSink;

  constructor(runtime: ScriptRuntime, name: string, config: ScriptConfig, log: LogSink) {
    this.label = `script:${name}`;
    this.runtime = runtime;
    this.config = config;
    this.log = log;
  }

  /** The script file is there and readable (running it would call the source: that is `connector test`). */
  probe(): Promise<string> {
    try {
      accessSync(this.config.path, constants.R_OK);
    } catch (error) {
      const why = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : 'cannot be read';
      return Promise.reject(
        new KbctxError(
          'script_error',
          `${this.label}: ${this.config.path} ${why}; fix connectors.script.${this.label.slice(7)}.path`,
          { cause: error },
        ),
      );
    }
    return Promise.resolve(this.config.path);
  }

  /** Rejects with timeout / script_error when the script fails; nothing is deleted then. */
  async scan(options: ScanOptions): Promise<ScanResult> {
    const raw = (await this.runtime.run(
      {
        kind: 'connector.scan',
        label: this.label,
        scriptPath: this.config.path,
        config: toScriptConfig(this.config.extra),
        input: { checkpoint: options.full ? null : parseCheckpoint(options.checkpoint) },
      },
      { timeoutSecs: this.config.timeoutSecs, signal: options.signal },
    )) as RawScan;
    return toScanResult(raw, this.label, (message) => this.log(this.label, 'warn', message));
  }
}
