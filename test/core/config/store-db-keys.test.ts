// ADR 0239: the `[db]` keys beyond the kernel's (`engine`, `path`, `url`) are the store plugins' (`storeConfigs`):
// checked by their schemas whichever engine is chosen, converted by their `toConfig`, unknown ones refused with the
// key path, and described in the config's JSON Schema; the bundled stores' keys keep their defaults and messages.
import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { BUNDLED_PLUGINS } from '../../../registry/bundled.ts';
import { registerConfigSections } from '../../../core/config/plugin-sections.ts';
import { parseConfig } from '../../../core/config/load-config.ts';
import { configJsonSchema } from '../../../core/config/json-schema.ts';
import { DURATION_SCHEMA, type PluginMeta } from '../../../core/api/plugin.ts';

const store: PluginMeta = {
  name: 'store-demo',
  version: '0.0.0',
  kbctx: '^0.2',
  storeConfigs: {
    demo: {
      schema: {
        type: 'object',
        properties: { shards: { type: 'integer', minimum: 1, default: 2 }, ttl: DURATION_SCHEMA },
      },
      toConfig: (t) => ({ shards: t['shards'], ttlSecs: t['ttl'] ?? null }),
    },
  },
};

after(() => registerConfigSections(BUNDLED_PLUGINS));

const parse = (text: string) => parseConfig(text, { file: 'k.toml', cwd: '/w', env: {} });

it("a store plugin's [db] keys: defaults, durations and its toConfig, whichever engine is chosen", () => {
  registerConfigSections([store]);
  const db = parse('[db]\nengine = "sqlite"\nttl = "2m"\n').db as unknown as Record<string, unknown>;
  assert.deepEqual([db['engine'], db['shards'], db['ttlSecs']], ['sqlite', 2, 120]);
  assert.equal((parse('').db as unknown as Record<string, unknown>)['shards'], 2, 'defaults with no [db] section');
  assert.throws(() => parse('[db]\nshards = 0\n'), /k\.toml: db\.shards must be at least 1/);
  assert.throws(
    () => parse('[db]\nkeyword_engine = "fts5"\n'),
    /k\.toml: db\.keyword_engine is not a known key .*; a store plugin's own keys need that plugin in plugins/,
  );
  const json = configJsonSchema() as { properties: { db: { properties: Record<string, unknown> } } };
  assert.deepEqual(Object.keys(json.properties.db.properties), ['engine', 'path', 'url', 'shards', 'ttl']);
});

it(
  "the bundled stores' keys: sqlite's keyword_engine, postgres's " +
    "pool_size, lancedb's storage_options and lock_lease",
  () => {
    registerConfigSections(BUNDLED_PLUGINS);
    const { db } = parse('[db]\nkeyword_engine = "fts5"\npool_size = 3\nlock_lease = "1m"\n');
    assert.deepEqual([db.keywordEngine, db.poolSize, db.lockLeaseSecs, db.storageOptions], ['fts5', 3, 60, {}]);
    assert.throws(() => parse('[db]\npool_size = 0\n'), /k\.toml: db\.pool_size must be between 1 and 1000/);
    assert.throws(() => parse('[db]\nlock_lease = 0\n'), /k\.toml: db\.lock_lease must be longer than 0 s/);
    assert.throws(() => parse('[db]\nlock_lease = "soon"\n'), /db\.lock_lease must be a duration/);
  },
);

// ADR 0241: the engine is chosen by the stores' claims, not by names the kernel knows.
const claiming: PluginMeta = {
  name: 'store-mem',
  version: '0.0.0',
  kbctx: '^0.2',
  storeConfigs: {
    mem: {
      schema: { type: 'object', properties: {} },
      label: 'Mem',
      url: { schemes: ['mem:'], example: 'mem://host/db', kind: 'a Mem database' },
    },
    tape: {
      schema: { type: 'object', properties: {} },
      label: 'Tape',
      remotePath: { claims: (p) => p.startsWith('tape:'), kind: 'a tape' },
    },
    sqlite: { schema: { type: 'object', properties: {} }, label: 'Lite' },
  },
};

it("the engine a url or path implies is the store claiming it; the claimer's words fill the messages", () => {
  registerConfigSections([claiming]);
  assert.equal(parse('[db]\nurl = "mem://h/kb"').db.engine, 'mem');
  assert.deepEqual(
    [parse('[db]\npath = "tape:/0"').db.engine, parse('[db]\npath = "tape:/0"').db.path],
    ['tape', 'tape:/0'],
  );
  assert.equal(parse('[db]\npath = "s3://kb/index"').db.engine, 'sqlite', 'no store claims a bucket here');
  assert.throws(() => parse('[db]\nurl = "postgres://a@x/kb"'), /must be a mem:\/\/ URL, not postgres:\/\/…; for Lite/);
  assert.throws(() => parse('[db]\nurl = "nope"'), /is not a URL: expected mem:\/\/host\/db/);
  assert.throws(() => parse('[db]\nengine = "mem"'), /db\.engine = "mem" needs db\.url .*: mem:\/\/host\/db/);
  assert.throws(
    () => parse('[db]\nengine = "sqlite"\nurl = "mem://h/kb"'),
    /db\.engine = "sqlite" contradicts db\.url \(or KBCTX_DATABASE_URL\), a Mem database: set engine = "mem"/,
  );
  assert.throws(
    () => parse('[db]\nengine = "sqlite"\npath = "tape:/0"'),
    /db\.path = "tape:\/0" is a tape, which only the Tape store reads: set db\.engine = "tape" .*local path for Lite/,
  );
  // An engine the loaded declarations do not know (a configured plugin's) takes any url; its plugin checks it.
  assert.equal(parse('[db]\nengine = "other"\nurl = "odbc://x/y"').db.url, 'odbc://x/y');
});

it("the bundled stores' claims keep the messages: PostgreSQL's mirror has a local path", () => {
  registerConfigSections(BUNDLED_PLUGINS);
  assert.throws(
    () => parse('[db]\npath = "s3://kb/i"\nurl = "postgres://a@x/kb"'),
    /is object storage, which only the LanceDB store reads: .*or give a local path for PostgreSQL's mirror/,
  );
});
