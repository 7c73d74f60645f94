// The workspace of the `kbctx migrate` CLI tests: three documents synced and embedded (through the
// hashing provider) into index.sqlite, a config per other database, and the searches to compare.
import assert from 'node:assert/strict';
import { startHashingProvider, type HashingProvider } from './hashing-provider.ts';
import { Workspace } from './workspace.ts';

export class MigrateWorkspace {
  readonly ws = new Workspace('kbctx-migrate-');
  private provider: HashingProvider | undefined;

  /** Starts the embedding provider, writes the documents and config/kbctx.toml, and syncs. */
  async setUp(): Promise<void> {
    this.provider = await startHashingProvider(32);
    this.ws.write('docs/zebra.md', '# Zebras\n\nZebra stripes confuse flies; a zebra herd crosses the river.\n');
    this.ws.write('docs/river.md', '# Rivers\n\nA river delta forms where the river meets the sea.\n');
    this.ws.write('docs/notes/mountain.txt', 'Mountain passes close in winter; the mountain road reopens in spring.\n');
    this.ws.config(this.config('index.sqlite'));
    const sync = await this.ws.syncJson('all');
    assert.equal(sync.code, 0, sync.stderr);
  }

  /** The config of an index at `db` (an SQLite path; KBCTX_DATABASE_URL points it at PostgreSQL). */
  config(db: string): string {
    return (
      `[db]\npath = "${db}"\n[embedding]\nprovider = "openai"\nbase_url = "${this.provider?.baseUrl}"\nmodel = ` +
      `"m"\ndims = 32\n[connectors.filesystem.docs]\nroot = "docs"\n`
    );
  }

  /** Keyword, semantic and hybrid answers (`--json`), with extra global arguments and environment. */
  async searches(args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<unknown[]> {
    const out: unknown[] = [];
    for (const [query, mode] of [
      ['zebra river', 'keyword'],
      ['mountain road', 'semantic'],
      ['river delta', 'hybrid'],
    ] as const) {
      const r = await this.ws.kbctx([...args, 'search', query, '--mode', mode, '--json'], { env });
      assert.equal(r.code, 0, r.stderr);
      const body = JSON.parse(r.stdout) as { results: unknown[] };
      assert.ok(body.results.length > 0, `${mode} finds something`);
      out.push(body);
    }
    return out;
  }

  async cleanup(): Promise<void> {
    await this.provider?.close();
    this.ws.cleanup();
  }
}
