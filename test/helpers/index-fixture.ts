// An in-process kbctx over a temp workspace: real files, a real SQLite file, the real sync path.
import '../../registry/bundled.ts'; // the bundled plugin set (core/app/bundled-set.ts)
import { parseConfig } from '../../core/config/load-config.ts';
import { openKbctx, type Kbctx } from '../../core/app/compose.ts';
import { selectConnectors } from '../../core/app/select-connectors.ts';
import { syncConnectors, type SyncReport } from '../../core/app/sync.ts';
import { Workspace } from './workspace.ts';

export class IndexFixture {
  readonly ws = new Workspace('kbctx-index-');
  private current: Kbctx | undefined;
  private toml: string;

  /** `plugins`: the top-level `plugins` list (it must precede every table). */
  constructor(toml = '[connectors.filesystem.docs]\nroot = "docs"\n', plugins?: readonly string[]) {
    const head = plugins === undefined ? '' : `plugins = ${JSON.stringify(plugins)}\n`;
    this.toml = `${head}[db]\npath = "index.sqlite"\n${toml}`;
  }

  async setConfig(toml: string): Promise<void> {
    await this.current?.close();
    this.current = undefined;
    this.toml = `[db]\npath = "index.sqlite"\n${toml}`;
  }

  get kbctx(): Kbctx {
    this.current ??= openKbctx(parseConfig(this.toml, { file: 'test.toml', cwd: this.ws.dir, env: {} }));
    return this.current;
  }

  async sync(target = 'all', full = false): Promise<SyncReport[]> {
    const kbctx = this.kbctx;
    const connectors = await Promise.all(
      selectConnectors(kbctx.config, target).map((r) => kbctx.index.createConnector(r)),
    );
    return syncConnectors(kbctx.index.syncDeps(), connectors, { full });
  }

  async syncOne(target = 'all', full = false): Promise<SyncReport> {
    const [report] = await this.sync(target, full);
    if (!report) throw new Error('no report');
    return report;
  }

  async close(): Promise<void> {
    await this.current?.close();
    this.current = undefined;
    this.ws.cleanup();
  }
}
