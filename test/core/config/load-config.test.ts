import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import '../../../registry/bundled.ts'; // the plugins owning [server] and the connector types (ADR 0164)
import { fileURLToPath } from 'node:url';
import { KbctxError } from '../../../core/domain/errors.ts';
import { loadConfig, parseConfig } from '../../../core/config/load-config.ts';
import { requireEnvFor } from '../../../core/config/require-env.ts';
import { serverConfigOf } from '../../../plugins/transport-http/api.ts';
import { scriptConnectorsOf, scriptToolsOf, scriptsConfigOf } from '../../../plugins/lua-bridge/api.ts';
import { gitConnectorsOf } from '../../../plugins/connector-git/api.ts';
import { filesystemConnectorsOf } from '../../../plugins/connector-filesystem/api.ts';
import { inlineAgentsOf } from '../../../plugins/agents-inline/api.ts';
import { extensionsConfigOf } from '../../../plugins/extensions/api.ts';
import { joinedRegExp } from '../../helpers/joined-regexp.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const cwd = mkdtempSync(path.join(tmpdir(), 'kbctx-config-'));
after(() => rmSync(cwd, { recursive: true, force: true }));

const parse = (toml: string, env: NodeJS.ProcessEnv = {}) => parseConfig(toml, { file: 'config/kbctx.toml', cwd, env });

function configError(toml: string, env: NodeJS.ProcessEnv = {}): string {
  try {
    parse(toml, env);
  } catch (error) {
    assert.ok(error instanceof KbctxError, `expected a KbctxError, got ${String(error)}`);
    assert.equal(error.code, 'config_error');
    return error.message;
  }
  assert.fail('expected a config error');
}

describe('config', () => {
  it('parses config/kbctx.example.toml, which documents every key', () => {
    const config = loadConfig({
      configPath: path.join(ROOT, 'config/kbctx.example.toml'),
      cwd,
      env: { TICKETS_TOKEN: 't0k' },
    });
    assert.equal(config.retrieval.hybridAlpha, null); // unset: the embedder's weight, else 0.6 (ADR 0150)
    assert.equal(
      filesystemConnectorsOf(config)['docs']?.root,
      path.join(ROOT, 'docs'),
      'relative to the project above config/',
    );
    assert.equal(scriptConnectorsOf(config)['tickets']?.extra['token'], 't0k');
    assert.equal(scriptConnectorsOf(config)['tickets']?.timeoutSecs, 300);
    assert.equal(inlineAgentsOf(config)['reviewer']?.tools.join(','), 'search,get');
    assert.equal(config.registries['community']?.readonly, true);
    assert.equal(serverConfigOf(config).headersTimeoutSecs, 10);
    assert.equal(serverConfigOf(config).allowUnauthenticated, false);
    assert.ok(
      scriptsConfigOf(config).envAllow.includes('TICKETS_TOKEN'),
      'a ${VAR} the file uses is readable by scripts',
    );
  });

  it('reads [server] auth and time-out keys and [scripts] env_allow with the referenced variables', () => {
    const config = loadConfig({
      configPath: path.join(ROOT, 'config/kbctx.example.toml'),
      cwd,
      env: { TICKETS_TOKEN: 't0k' },
    });
    assert.equal(serverConfigOf(config).authTokenEnv, null);
    const custom = parse(
      '[server]\nauth_token_env = "KBCTX_TOKEN"\nrequest_timeout_secs = 60\n[scripts]\nenv_allow = ["HOME"]\n',
    );
    assert.equal(serverConfigOf(custom).authTokenEnv, 'KBCTX_TOKEN');
    assert.equal(serverConfigOf(custom).requestTimeoutSecs, 60);
    assert.deepEqual(scriptsConfigOf(custom).envAllow, ['HOME']);
    assert.match(
      configError('[server]\nheaders_timeout_secs = 40\n'),
      /headers_timeout_secs must not exceed server\.request_timeout_secs/,
    );
  });

  it('loads a Context Harness ctx.toml unchanged', () => {
    const config = loadConfig({ configPath: path.join(ROOT, 'test/fixtures/ctx.toml'), cwd, env: {} });
    assert.equal(config.db.path, path.join(ROOT, 'test/fixtures/data/ctx.sqlite'), "relative to the file's folder");
    assert.equal(serverConfigOf(config).bind, '127.0.0.1:7332');
    assert.equal(filesystemConnectorsOf(config)['local']?.maxFileBytes, 50_000_000);
    assert.equal(scriptConnectorsOf(config)['jira']?.extra['project_key'], 'ENG');
    assert.equal(config.registries['community']?.autoUpdate, true);
  });

  it('applies defaults for an empty file', () => {
    const config = parse('');
    assert.equal(config.db.path, path.join(cwd, '.kbctx/kbctx.sqlite'));
    assert.deepEqual(config.chunking, { maxTokens: 700, overlapTokens: 80 });
    assert.equal(config.retrieval.finalLimit, 12);
    assert.equal(config.retrieval.maxLimit, 100);
    assert.equal(config.embedding.provider, 'disabled');
    assert.equal(serverConfigOf(config).bind, '127.0.0.1:7331');
    assert.ok(Object.isFrozen(config.retrieval));
  });

  it('names the file and key path of an out-of-range value', () => {
    assert.equal(
      configError('[retrieval]\nhybrid_alpha = 1.5'),
      'config/kbctx.toml: retrieval.hybrid_alpha must be between 0 and 1',
    );
  });

  it('rejects unknown keys with their path', () => {
    assert.match(
      configError('[retrieval]\nfinal_limt = 5'),
      /^config\/kbctx\.toml: retrieval\.final_limt is not a known key/,
    );
    assert.match(
      configError('[connectors.filesystem.docs]\nroot = "."\nfollow = true'),
      /connectors\.filesystem\.docs\.follow is not a known key/,
    );
    assert.match(configError('[retreival]\nfinal_limit = 5'), /retreival is not a known key/);
  });

  it('accepts other connector types only with [extensions] modules, as tables of named tables', () => {
    assert.match(
      configError('[connectors.filesytem.docs]\nroot = "."'),
      joinedRegExp(
        /connectors\.filesytem is not a known key \(connector types: filesystem, git, /,
        /s3, script; others come from plugins or \[extensions\] modules\)/,
      ),
    );
    const ext = '[extensions]\nmodules = ["./ext.mjs"]\n';
    assert.match(
      configError(`${ext}[connectors]\njira = 3`),
      /connectors\.jira must hold named tables, e\.g\. \[connectors\.jira\.main\]/,
    );
    const config = parseConfig(`${ext}timeout = 5\n[connectors.jira.main]\nproject = "ENG"\n`, {
      file: 'config/kbctx.toml',
      cwd: '/work',
    });
    assert.deepEqual(config.plugins.connectors, { jira: { main: { project: 'ENG' } } });
    assert.deepEqual(config.connectors['jira'], { main: { project: 'ENG' } }, 'beside the owned types');
    assert.deepEqual(extensionsConfigOf(config), { modules: ['./ext.mjs'], baseDir: '/work', timeoutSecs: 5 });
    assert.equal(
      configError(`${ext}timeout = 0\n`),
      "config/kbctx.toml: extensions.timeout must be greater than 0 (checked by plugin 'extensions')",
    );
  });

  it('rejects wrong types and missing required keys', () => {
    assert.equal(
      configError('[chunking]\nmax_tokens = "700"'),
      'config/kbctx.toml: chunking.max_tokens must be a number, got string "700"',
    );
    assert.equal(
      configError('[chunking]\nmax_tokens = 70.5'),
      'config/kbctx.toml: chunking.max_tokens must be a whole number, got 70.5',
    );
    assert.equal(
      configError('[connectors.filesystem.docs]\ninclude_globs = ["*.md"]'),
      "config/kbctx.toml: connectors.filesystem.docs.root is required (checked by plugin 'connector-filesystem')",
    );
    assert.equal(
      configError('[embedding]\nprovider = "local"\nmodel_path = "m"'),
      'config/kbctx.toml: embedding.model_path is not a known key (check the spelling against ' +
        "config/kbctx.example.toml) (checked by plugin 'embedder-local')",
    );
  });

  it("[embedding]: a plugin's provider name, its options passed through for the plugin to check", () => {
    const config = parseConfig('[embedding]\nprovider = "transformers"\nmodel_path = "models/mini"\npooling = "cls"', {
      file: 'config/kbctx.toml',
      cwd: '/work',
      env: {},
    });
    assert.equal(config.embedding.provider, 'transformers');
    assert.deepEqual(config.embedding.extra, { model_path: 'models/mini', pooling: 'cls' });
    assert.equal(config.embedding.baseDir, '/work');
  });

  it('checks relations between keys', () => {
    assert.match(
      configError('[chunking]\nmax_tokens = 100\noverlap_tokens = 100'),
      /overlap_tokens must be less than chunking\.max_tokens/,
    );
    assert.match(
      configError('[retrieval]\nfinal_limit = 50\nmax_limit = 10'),
      /final_limit must not exceed retrieval\.max_limit/,
    );
    assert.match(configError('[embedding]\nprovider = "openai"'), /needs embedding\.model and embedding\.dims/);
  });

  it('expands ${VAR} and names the key of a missing variable', () => {
    const config = parse('[connectors.filesystem.docs]\nroot = "${DOCS_DIR}/kb"', { DOCS_DIR: '/srv' });
    assert.equal(filesystemConnectorsOf(config)['docs']?.root, '/srv/kb');
    assert.match(
      configError('[db]\npath = "${NOPE_DIR}/x.sqlite"'),
      /db\.path uses \$\{NOPE_DIR\}.*NOPE_DIR is not set/,
    );
    // A script's own section only fails that script, when it runs (requireEnvFor).
    const deferred = parse('[tools.script.t]\npath = "t.lua"\ntoken = "${NOPE_TOKEN}"', {});
    assert.deepEqual(deferred.unsetEnv, {
      'tools.script.t': [{ key: 'tools.script.t.token', variable: 'NOPE_TOKEN' }],
    });
    assert.throws(
      () => requireEnvFor(deferred, 'tools.script.t'),
      /tools\.script\.t\.token uses \$\{NOPE_TOKEN\}.*NOPE_TOKEN is not set/,
    );
    assert.doesNotThrow(() => requireEnvFor(deferred, 'tools.script.other'));
  });

  it('reads [db] url and KBCTX_DATABASE_URL (which wins), and rejects what is not a postgres:// URL', () => {
    assert.equal(parse('').db.url, null);
    assert.equal(parse('[db]\nurl = "postgres://kbctx@db:5432/kb"').db.url, 'postgres://kbctx@db:5432/kb');
    assert.equal(
      parse('[db]\nurl = "postgres://a@x/kb"', { KBCTX_DATABASE_URL: 'postgresql://b@y/kb' }).db.url,
      'postgresql://b@y/kb',
    );
    assert.equal(parse('[db]\npool_size = 4').db.poolSize, 4);
    assert.match(configError('[db]\nurl = "mysql://x/y"'), /must be a postgres:\/\/ URL, not mysql:/);
    assert.match(configError('', { KBCTX_DATABASE_URL: 'not a url' }), /KBCTX_DATABASE_URL\) is not a URL/);
  });

  it(
    '[db] engine: sqlite by default, postgres with a url, a ' + "plugin's by name; one the url contradicts is refused",
    () => {
      assert.equal(parse('').db.engine, 'sqlite');
      assert.equal(parse('[db]\nurl = "postgres://kbctx@db:5432/kb"').db.engine, 'postgres');
      assert.equal(parse('', { KBCTX_DATABASE_URL: 'postgres://kbctx@db:5432/kb' }).db.engine, 'postgres');
      assert.equal(parse('[db]\nengine = "wrapped"').db.engine, 'wrapped');
      assert.match(
        configError('[db]\nengine = "sqlite"\nurl = "postgres://a@x/kb"'),
        /db\.engine = "sqlite" contradicts db\.url \(or KBCTX_DATABASE_URL\), a PostgreSQL database/,
      );
      assert.match(
        configError('[db]\nengine = "wrapped"', { KBCTX_DATABASE_URL: 'postgres://a@x/kb' }),
        /db\.engine = "wrapped" contradicts db\.url/,
      );
      assert.match(
        configError('[db]\nengine = "postgres"'),
        /db\.engine = "postgres" needs db\.url \(or KBCTX_DATABASE_URL\)/,
      );
      assert.match(configError('[db]\nengine = 3'), /db\.engine/);
    },
  );

  it(
    '[db] path in a bucket (ADR 0231): LanceDB implied, kept as ' +
      'written, storage_options as strings; SQLite refused',
    () => {
      const db = parse(
        '[db]\npath = "s3://kb/team/index"\nlock_lease = "5s"\n[db.storage_options]\nendpoint = ' +
          '"http://127.0.0.1:9000"\nallow_http = "true"',
      ).db;
      assert.deepEqual(
        [db.engine, db.path, db.storageOptions, db.lockLeaseSecs],
        ['lancedb', 's3://kb/team/index', { endpoint: 'http://127.0.0.1:9000', allow_http: 'true' }, 5],
      );
      assert.equal(parse('[db]\npath = "gs://kb/index"\nengine = "lancedb"').db.path, 'gs://kb/index');
      assert.deepEqual([parse('').db.storageOptions, parse('').db.lockLeaseSecs], [{}, 15]);
      assert.match(
        configError('[db]\npath = "s3://kb/index"\nengine = "sqlite"'),
        joinedRegExp(
          /db\.path = "s3:\/\/kb\/index" is object storage, which only /,
          /the LanceDB store reads: set db\.engine = "lancedb"/,
        ),
      );
      assert.match(
        configError('[db.storage_options]\nallow_http = true'),
        /db\.storage_options\.allow_http must be a string/,
      );
      assert.match(configError('[db]\nlock_lease = "off"'), /db\.lock_lease must be longer than 0 s/);
    },
  );

  it('reports TOML syntax errors with a line number', () => {
    assert.match(configError('[db]\npath = "x'), /config\/kbctx\.toml: not valid TOML \(line 2/);
  });

  it('finds the config: -c, then KBCTX_CONFIG, then ./config/kbctx.toml, then the built-in default', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'kbctx-lookup-'));
    try {
      assert.equal(loadConfig({ cwd: dir, env: {} }).file, null);
      assert.ok(filesystemConnectorsOf(loadConfig({ cwd: dir, env: {} }))['local']);
      mkdirSync(path.join(dir, 'config'));
      writeFileSync(path.join(dir, 'config/kbctx.toml'), '[server]\nbind = "127.0.0.1:1"');
      writeFileSync(path.join(dir, 'env.toml'), '[server]\nbind = "127.0.0.1:2"');
      writeFileSync(path.join(dir, 'flag.toml'), '[server]\nbind = "127.0.0.1:3"');
      assert.equal(serverConfigOf(loadConfig({ cwd: dir, env: {} })).bind, '127.0.0.1:1');
      assert.equal(serverConfigOf(loadConfig({ cwd: dir, env: { KBCTX_CONFIG: 'env.toml' } })).bind, '127.0.0.1:2');
      assert.equal(
        serverConfigOf(loadConfig({ cwd: dir, env: { KBCTX_CONFIG: 'env.toml' }, configPath: 'flag.toml' })).bind,
        '127.0.0.1:3',
      );
      assert.throws(
        () => loadConfig({ cwd: dir, env: {}, configPath: 'missing.toml' }),
        /config file not found: missing\.toml/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('resolves relative paths against the config root, whatever the working directory (ADR 0114)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'kbctx-root-'));
    const elsewhere = path.join(dir, 'elsewhere');
    const toml =
      '[db]\npath = "data/kb.sqlite"\n[connectors.filesystem.docs]\nroot = "docs"\n[connectors.git.wiki]\nurl = ' +
      '"https://example.com/wiki.git"\ncache_dir = "cache"\n[tools.script.t]\npath = "tools/t.lua"\n' +
      '[registries.own]\npath = "registry"\n[extensions]\nmodules = ["./ext.mjs"]\n';
    try {
      mkdirSync(elsewhere);
      const write = (relative: string): string => {
        mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
        writeFileSync(path.join(dir, relative), toml);
        return path.join(dir, relative);
      };
      const paths = (file: string) => {
        const c = loadConfig({ cwd: elsewhere, env: {}, configPath: file });
        return [
          c.baseDir,
          c.db.path,
          filesystemConnectorsOf(c)['docs']?.root,
          gitConnectorsOf(c)['wiki']?.cacheDir,
          scriptToolsOf(c)['t']?.path,
          c.registries['own']?.path,
        ];
      };
      const under = (base: string) => [
        base,
        ...['data/kb.sqlite', 'docs', 'cache', 'tools/t.lua', 'registry'].map((p) => path.join(base, p)),
      ];
      assert.deepEqual(
        paths(write('project/config/kbctx.toml')),
        under(path.join(dir, 'project')),
        'config/ sits in the project',
      );
      assert.deepEqual(
        paths(write('project/.ctx/config.toml')),
        under(path.join(dir, 'project')),
        'a Context Harness workspace',
      );
      assert.deepEqual(paths(write('etc/kbctx.toml')), under(path.join(dir, 'etc')), 'any other file: its own folder');
      assert.equal(
        loadConfig({ cwd: elsewhere, env: { KBCTX_CONFIG: path.join(dir, 'etc/kbctx.toml') } }).db.path,
        path.join(dir, 'etc/data/kb.sqlite'),
        'KBCTX_CONFIG too',
      );
      const project = loadConfig({ cwd: elsewhere, env: {}, configPath: path.join(dir, 'project/config/kbctx.toml') });
      assert.deepEqual(
        [project.plugins.baseDir, extensionsConfigOf(project).baseDir],
        [path.join(dir, 'project'), path.join(dir, 'project')],
        'plugin paths and extension modules: the project too, one rule',
      );
      assert.equal(
        loadConfig({ cwd: elsewhere, env: { HOME: dir } }).db.path,
        path.join(elsewhere, '.kbctx/kbctx.sqlite'),
        'the built-in default: the working directory',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
