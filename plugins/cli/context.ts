// What every CLI command receives: output streams, global options, and lazily loaded config and app.
// Commands translate flags into app calls and results into text or JSON; nothing else. The config
// loader and the composition root are imported by `prepare()` (before an action runs), not at start-up;
// so is a config module (kbctx.config.mjs), whose tree `config()` then validates synchronously.
import type { Writable } from 'node:stream';
import type { Config } from '../../core/api/plugin.ts';
import type { ConfigModule } from '../../core/api/host.ts';
import type { Kbctx, loadHost } from '../../core/api/host.ts';
import type { IndexAccess } from '../../core/api/plugin.ts';

type Loaders = Awaited<ReturnType<typeof loadHost>>;

export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  /** Whether stderr is a terminal (progress bars) . */
  readonly interactive: boolean;
  /** stdout's width when it is a terminal (tables fit it); absent: 80 is assumed. */
  readonly columns?: number | undefined;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** The real stdout, for commands that stream large output with back-pressure (`export`); `out` otherwise. */
  readonly stdout?: Writable;
}

export interface GlobalOptions {
  config?: string | undefined;
  json?: boolean | undefined;
}

const ACCESS_RANK: Readonly<Record<IndexAccess, number>> = { read: 0, write: 1, create: 2 };

export class CliContext {
  readonly io: CliIO;
  private readonly globals: () => GlobalOptions;
  private cachedConfig: Config | undefined;
  private cachedKbctx: Kbctx | undefined;
  private access: IndexAccess = 'read';
  private loaders: Loaders | undefined;
  /**
   * The config module (kbctx.config.mjs) prepare() imported, or why it failed (thrown when a command reads the config).
   */
  private configModule: { ok: true; module: ConfigModule | undefined } | { ok: false; error: unknown } | undefined;

  constructor(io: CliIO, globals: () => GlobalOptions) {
    this.io = io;
    this.globals = globals;
  }

  globalOptions(): GlobalOptions {
    return this.globals();
  }

  get json(): boolean {
    return this.globals().json === true;
  }

  /** Imports the config loader and the composition root; run-cli awaits it before any command action. */
  async prepare(): Promise<void> {
    const { loadHost } = await import('../../core/api/host.ts');
    this.loaders = await loadHost();
    // Config as code is imported here, as loadConfig is synchronous; a TOML config costs a lookup.
    this.configModule ??= await this.loaders.importConfig(this.lookup()).then(
      (module) => ({ ok: true as const, module }),
      (error: unknown) => ({ ok: false as const, error }),
    );
  }

  private lookup(): { configPath: string | undefined; cwd: string; env: NodeJS.ProcessEnv } {
    return { configPath: this.globals().config, cwd: this.io.cwd, env: this.io.env };
  }

  private get load(): Loaders {
    if (!this.loaders) throw new Error('CliContext.prepare() was not awaited');
    return this.loaders;
  }

  config(): Config {
    if (this.cachedConfig) return this.cachedConfig;
    const imported = this.configModule;
    if (imported?.ok === false) throw imported.error;
    this.cachedConfig = this.load.loadConfig({ ...this.lookup(), module: imported?.module });
    return this.cachedConfig;
  }

  /**
   * Uses `config` instead of the loaded one (a test run adding an unconfigured script): the host opened for the
   * commands is closed, and the next kbctx() opens one on `config`.
   */
  async useConfig(config: Config): Promise<void> {
    await this.close();
    this.cachedConfig = config;
  }

  /**
   * The app, its store opened on first use for `access` (StoreOptions.access): `read` (the default) never
   * creates the index and opens a read-only one; only init, sync and serve ask `create`, embed `write`.
   * The most a caller asked before the store opens decides (a plugin command is routed through here
   * first with `read`; a later `create` still counts, a later `read` does not undo it).
   */
  kbctx(access: IndexAccess = 'read'): Kbctx {
    if (ACCESS_RANK[access] > ACCESS_RANK[this.access]) this.access = access;
    this.cachedKbctx ??= this.load.openKbctx(this.config(), this.io.env, { access: () => this.access });
    return this.cachedKbctx;
  }

  /** Where a loaded plugin came from (`bundled`, `path`, …), when this command opened the index; else undefined. */
  pluginOrigin(name: string): string | undefined {
    return this.cachedKbctx?.kernel.plugins().find((p) => p.name === name)?.origin;
  }

  /** Prints a value as pretty JSON on stdout. */
  printJson(value: unknown): void {
    this.io.out(`${JSON.stringify(value, null, 2)}\n`);
  }

  async close(): Promise<void> {
    const kbctx = this.cachedKbctx;
    this.cachedKbctx = undefined;
    await kbctx?.close();
  }
}
