// What every CLI command receives: output streams, global options, and lazily loaded config and app.
// Commands translate flags into app calls and results into text or JSON; nothing else.
import type { Writable } from 'node:stream';
import { loadConfig } from '../config/load-config.ts';
import type { Config } from '../config/types.ts';
import { openLore, type Lore } from '../compose.ts';

export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  /** Whether stderr is a terminal (progress bars) . */
  readonly interactive: boolean;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** The real stdout, for commands that stream large output with back-pressure (`export`); `out` otherwise. */
  readonly stdout?: Writable;
}

export interface GlobalOptions {
  config?: string | undefined;
  json?: boolean | undefined;
}

export class CliContext {
  readonly io: CliIO;
  private readonly globals: () => GlobalOptions;
  private cachedConfig: Config | undefined;
  private cachedLore: Lore | undefined;

  constructor(io: CliIO, globals: () => GlobalOptions) {
    this.io = io;
    this.globals = globals;
  }

  get json(): boolean {
    return this.globals().json === true;
  }

  config(): Config {
    this.cachedConfig ??= loadConfig({ configPath: this.globals().config, cwd: this.io.cwd, env: this.io.env });
    return this.cachedConfig;
  }

  lore(): Lore {
    this.cachedLore ??= openLore(this.config(), this.io.env);
    return this.cachedLore;
  }

  /** Prints a value as pretty JSON on stdout. */
  printJson(value: unknown): void {
    this.io.out(`${JSON.stringify(value, null, 2)}\n`);
  }

  close(): void {
    this.cachedLore?.close();
    this.cachedLore = undefined;
  }
}
