// An in-process Lore over a temp workspace: real files, a real SQLite file, the real sync path.
import { parseConfig } from '../../src/config/load-config.ts';
import { openLore, type Lore } from '../../src/compose.ts';
import { selectConnectors } from '../../src/app/select-connectors.ts';
import { syncConnectors, type SyncReport } from '../../src/app/sync.ts';
import { Workspace } from './workspace.ts';

export class IndexFixture {
  readonly ws = new Workspace('lore-index-');
  private current: Lore | undefined;
  private toml: string;

  constructor(toml = '[connectors.filesystem.docs]\nroot = "docs"\n') {
    this.toml = `[db]\npath = "index.sqlite"\n${toml}`;
  }

  async setConfig(toml: string): Promise<void> {
    await this.current?.close();
    this.current = undefined;
    this.toml = `[db]\npath = "index.sqlite"\n${toml}`;
  }

  get lore(): Lore {
    this.current ??= openLore(parseConfig(this.toml, { file: 'test.toml', cwd: this.ws.dir, env: {} }));
    return this.current;
  }

  async sync(target = 'all', full = false): Promise<SyncReport[]> {
    const lore = this.lore;
    const connectors = await Promise.all(selectConnectors(lore.config, target).map((r) => lore.createConnector(r)));
    return syncConnectors(lore.syncDeps(), connectors, { full });
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
