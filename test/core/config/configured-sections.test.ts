// ADR 0241: a configured plugin's `storeConfigs` and `embedderConfigs` are read, as its `connectorConfigs` are: its
// `[db]` and `[embedding]` keys are checked by its schemas when it is applied (an error naming the key path and the
// plugin), converted by its `toConfig` and handed to its store and embedder taps; its url claim is checked then.
// A real plugin file (TypeScript) in a temp project, a real SQLite index behind its store.
import '../../../registry/bundled.ts';
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { parse as parseToml } from 'smol-toml';
import { openKbctx, type Kbctx } from '../../../core/app/compose.ts';
import { parseConfigTree } from '../../../core/config/load-config.ts';
import { loadedConfigJsonSchema } from '../../../core/config/json-schema.ts';
import { REPO_ROOT, Workspace } from '../../helpers/workspace.ts';

const PLUGIN = `import type { OpenedStore, Plugin, Embedder } from '${REPO_ROOT}core/index.ts';
import { openSqliteStore } from '${REPO_ROOT}plugins/store-sqlite/sqlite-store.ts';
import { fileLocks } from '${REPO_ROOT}plugins/store-sqlite/api.ts';

const seen = ((globalThis as Record<string, unknown>).memoSeen ??= {}) as Record<string, unknown>;

export default {
  name: 'memo-store',
  version: '1.0.0',
  kbctx: '^0.2',
  storeConfigs: {
    memo: {
      schema: {
        type: 'object',
        properties: { shards: { type: 'integer', minimum: 1, default: 2 }, region: { type: 'string' } },
      },
      toConfig: (t) => ({ shards: t['shards'], region: t['region'] ?? null }),
      label: 'Memo',
      url: { schemes: ['memo:'], example: 'memo://host/kb', kind: 'a Memo database' },
    },
  },
  embedderConfigs: {
    hashy: {
      schema: {
        type: 'object',
        properties: { salt: { type: 'string', default: 's' }, width: { type: 'integer', minimum: 1 } },
        required: ['width'],
        additionalProperties: false,
      },
      toConfig: (t) => ({ salt: t['salt'], width: t['width'], model: t['model'] }),
    },
  },
  apply(kernel) {
    kernel.hooks.createStore.for('memo').tap('memo-store', (options): OpenedStore => {
      seen['store'] = options;
      const store = openSqliteStore(options.path, { keywordEngine: 'postings' });
      return { store, locks: fileLocks(options.path), label: 'Memo' };
    });
    kernel.hooks.createEmbedder.for('hashy').tap('memo-store', (options): Embedder => {
      seen['embedder'] = options.extra;
      const embed = async (t: string[]) => t.map(() => new Float32Array([1, 0]));
      return { model: 'hashy:x', dims: 2, batchSize: 1, concurrency: 1, embed } as Embedder;
    });
  },
} satisfies Plugin;
`;

const ws = new Workspace('kbctx-configured-sections-');
ws.write('my-store.ts', PLUGIN);
after(() => ws.cleanup());
const seen = (): Record<string, Record<string, unknown>> =>
  (globalThis as unknown as { memoSeen: Record<string, Record<string, unknown>> }).memoSeen;

const open = (toml: string): Kbctx =>
  openKbctx(parseConfigTree(parseToml(toml), { file: 'kbctx.toml', cwd: ws.dir, env: {} }), {});
const MEMO =
  'plugins = ["bundled", "./my-store.ts"]\n[db]\nengine = "memo"\nurl = "memo://h/kb"\npath = "memo/kb.sqlite"\n';
const configError = (pattern: RegExp) => (e: unknown) =>
  (e as { code?: string }).code === 'config_error' && pattern.test((e as Error).message);

/** Opens the config, applies its plugins and opens the store; closes. */
async function run(toml: string, check: (kbctx: Kbctx) => void | Promise<void> = () => undefined): Promise<void> {
  const kbctx = open(toml);
  try {
    await kbctx.ready();
    await kbctx.store.counts();
    await check(kbctx);
  } finally {
    await kbctx.close();
  }
}

describe("a configured store plugin's storeConfigs", () => {
  it('its [db] keys are checked, defaults applied, converted by its toConfig and handed to its store', async () => {
    await run(`${MEMO}shards = 4\n`, (kbctx) => {
      assert.equal(kbctx.index.engine, 'Memo');
      const options = seen()['store']!;
      assert.deepEqual([options['shards'], options['region'], options['url']], [4, null, 'memo://h/kb']);
      const db = (loadedConfigJsonSchema(kbctx.kernel) as { properties: { db: { properties: object } } }).properties.db;
      assert.ok('shards' in db.properties && 'region' in db.properties, 'kbctx config schema lists them');
    });
    await run(MEMO, () => assert.equal(seen()['store']!['shards'], 2));
  });

  it(
    'a bad value, an unknown key or a url it does not claim ' + 'is a config error naming the key and the plugin',
    async () => {
      await assert.rejects(
        run(`${MEMO}shards = 0\n`),
        configError(/^kbctx\.toml: db\.shards must be at least 1 \(checked by plugin 'memo-store'\)$/),
      );
      await assert.rejects(
        run(`${MEMO}shardz = 3\n`),
        configError(/^kbctx\.toml: db\.shardz is not a known key .*; no loaded store plugin declares it$/),
      );
      await assert.rejects(
        run(MEMO.replace('memo://h/kb', 'odbc://h/kb')),
        configError(/db\.url \(or KBCTX_DATABASE_URL\) must be a memo:\/\/ URL, not odbc:/),
      );
      await assert.rejects(
        run(MEMO.replace('url = "memo://h/kb"\n', '')),
        configError(/needs db\.url .*memo:\/\/host/),
      );
    },
  );

  it('without the plugin listed, its keys are unknown when the config loads', () => {
    assert.throws(
      () => open('[db]\nshards = 4\n'),
      configError(
        /kbctx\.toml: db\.shards is not a known key .*; a store plugin's own keys need that plugin in plugins/,
      ),
    );
  });
});

describe("a configured embedder plugin's embedderConfigs", () => {
  const HASHY = 'plugins = ["bundled", "./my-store.ts"]\n[db]\npath = "e/kb.sqlite"\n[embedding]\nprovider = "hashy"\n';

  it("the provider's keys are checked and converted, with the shared keys, and reach its embedder", async () => {
    await run(`${HASHY}model = "m1"\nwidth = 8\n`, (kbctx) => {
      assert.equal(kbctx.index.embedder()?.model, 'hashy:x');
      assert.deepEqual(seen()['embedder'], { salt: 's', width: 8, model: 'm1' });
      const embedding = (loadedConfigJsonSchema(kbctx.kernel) as { properties: { embedding: { properties: object } } })
        .properties.embedding;
      assert.ok('width' in embedding.properties);
    });
  });

  it('a missing or unknown key is a config error naming the key path and the plugin', async () => {
    await assert.rejects(
      run(HASHY),
      configError(/^kbctx\.toml: embedding\.width is required \(checked by plugin 'memo-store'\)$/),
    );
    await assert.rejects(run(`${HASHY}width = 1\nwidht = 2\n`), configError(/embedding\.widht is not a known key/));
  });
});
