// The real `kbctx` CLI, spawned in a temp workspace: every command's output, --json, and exit codes.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { SCHEMA_VERSION } from '../../plugins/store-sqlite/migrations.ts';
import { KBCTX_BIN, Workspace } from '../helpers/workspace.ts';
import { joinedRegExp } from '../helpers/joined-regexp.ts';

const ws = new Workspace('kbctx-cli-');
before(() => {
  ws.config(
    '[db]\npath = "data/index.sqlite"\n[connectors.filesystem.docs]\nroot = "docs"\n' +
      '[connectors.filesystem.later]\nroot = "later"\n',
  );
  ws.write(
    'docs/keys.md',
    '# Rotating signing keys\n\nGenerate a new key pair, publish it, then retire the old signing key.',
  );
  ws.write('docs/deploy.md', '# Deploying\n\nDeploys run from the main branch every weekday.');
  ws.write('later/x.md', 'later');
});
after(() => ws.cleanup());

const json = (text: string): Record<string, unknown> => JSON.parse(text) as Record<string, unknown>;

describe('kbctx CLI', () => {
  it('init is idempotent', async () => {
    for (let i = 0; i < 2; i++) {
      const r = await ws.kbctx(['init']);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /Index ready at .*data\/index\.sqlite \(SQLite, schema version \d+; \d+ documents\)/);
    }
    assert.equal(json((await ws.kbctx(['init', '--json'])).stdout)['schema_version'], SCHEMA_VERSION);
  });

  it('sources shows "not synced" before the first sync', async () => {
    const r = await ws.kbctx(['sources']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^Source\s+Documents\s+Chunks\s+Status\n/);
    assert.match(r.stdout, /filesystem:docs\s+0\s+0\s+not synced/);
  });

  it('sync prints one summary line per connector', async () => {
    const r = await ws.kbctx(['sync', 'filesystem:docs']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      joinedRegExp(
        /^filesystem:docs: fetched 2, upserted 2, chunks written 2, /,
        /deleted 0, unchanged 0, skipped 0, errors 0 \(\d+\.\d+ s\)\n$/,
      ),
    );
    const again = json((await ws.kbctx(['sync', 'filesystem', '--json'])).stdout);
    const reports = again['connectors'] as Record<string, unknown>[];
    assert.deepEqual(
      reports.map((c) => [c['connector'], c['unchanged']]),
      [
        ['filesystem:docs', 2],
        ['filesystem:later', 0],
      ],
    );
  });

  it('sync draws a progress bar on a terminal, and only summary lines otherwise', {
    skip: spawnSync('script', ['--version']).status !== 0 && 'no `script` for a pseudo-terminal',
  }, () => {
    const tty = spawnSync(
      'script',
      ['-qec', `"${process.execPath}" "${KBCTX_BIN}" sync filesystem:docs --full`, '/dev/null'],
      {
        cwd: ws.dir,
        encoding: 'utf8',
        env: { ...process.env, KBCTX_CONFIG: '' },
      },
    );
    assert.equal(tty.status, 0, tty.stderr);
    assert.match(tty.stdout, /filesystem:docs\s+\[#{24}\] 2\/2/);
    assert.match(tty.stdout, /filesystem:docs: fetched 2, upserted 2/);
  });

  it('sync rejects unknown targets: usage error for a bad form, not found for a missing connector', async () => {
    const bad = await ws.kbctx(['sync', 'nonsense']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /unknown connector 'nonsense': use all, a type/);
    const missing = await ws.kbctx(['sync', 'git:docs']);
    assert.equal(missing.code, 4);
    assert.match(
      missing.stderr,
      /connector git:docs is not configured \(configured: filesystem:docs, filesystem:later\)/,
    );
  });

  it('search prints ranked results; --json gives the API shape; --explain the scores', async () => {
    const r = await ws.kbctx(['search', 'how', 'do', 'I', 'rotate', 'keys?']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^1\. Rotating signing keys {2}\/\S*\/docs\/keys\.md:1-\d+ {2}\[0\.\d{3}\]\n {3}filesystem:docs · keys\.md\n/,
    );
    const body = json((await ws.kbctx(['search', 'rotate keys', '--json', '--limit', '1'])).stdout);
    const results = body['results'] as Record<string, unknown>[];
    assert.equal(results.length, 1);
    assert.deepEqual(Object.keys(results[0]!).sort(), [
      'id',
      'lang',
      'line_end',
      'line_start',
      'score',
      'snippet',
      'source',
      'source_id',
      'source_url',
      'symbol',
      'title',
      'updated_at',
    ]);
    const explained = await ws.kbctx(['search', 'rotate keys', '--explain']);
    assert.match(explained.stdout, /^mode: keyword {2}alpha: - {2}keyword candidates: \d+ {2}vector candidates: 0\n/);
    assert.match(explained.stdout, /keyword 0\.\d{4} {2}semantic - {2}hybrid 0\.\d{4} {2}updated \d{4}-/);
  });

  it('search reports bad options as usage errors and missing embeddings as a config problem', async () => {
    const limit = await ws.kbctx(['search', 'x', '--limit', 'ten']);
    assert.equal(limit.code, 2);
    assert.match(limit.stderr, /--limit.*must be a whole number/);
    const mode = await ws.kbctx(['search', 'x', '--mode', 'fuzzy']);
    assert.equal(mode.code, 2);
    assert.match(mode.stderr, /'mode' must be one of/);
    const semantic = await ws.kbctx(['search', 'x', '--mode', 'semantic']);
    assert.equal(semantic.code, 3);
    assert.match(semantic.stderr, /configure|\[embedding\]/);
  });

  it('get prints the document as JSON, exit 4 for an unknown id', async () => {
    const found = json((await ws.kbctx(['search', 'deploy', '--json'])).stdout);
    const id = (found['results'] as { id: string }[])[0]!.id;
    const doc = json((await ws.kbctx(['get', id])).stdout);
    assert.equal(doc['id'], id);
    assert.equal(doc['source'], 'filesystem:docs');
    assert.equal(doc['source_id'], 'deploy.md');
    assert.match(doc['body'] as string, /Deploys run from the main branch/);
    const missing = await ws.kbctx(['get', '00000000-0000-0000-0000-000000000000']);
    assert.equal(missing.code, 4);
    assert.match(missing.stderr, /document not found/);
    const asJson = await ws.kbctx(['get', 'nope', '--json']);
    assert.deepEqual(json(asJson.stderr), { error: { code: 'not_found', message: 'document not found: nope' } });
  });

  it('stats shows the database, counts and a per-source table with "never"', async () => {
    const r = await ws.kbctx(['stats']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^Database: {2}.*data\/index\.sqlite \(\d/m);
    assert.match(r.stdout, /^Config: {4}\/.*config\/kbctx\.toml$/m);
    assert.match(r.stdout, /Documents: 3\nChunks: {4}3\nEmbedded: {2}0 \(0%\)/);
    assert.match(r.stdout, /filesystem:docs\s+2\s+2\s+0\s+\d{4}-\d\d-\d\dT/);
    const s = json((await ws.kbctx(['stats', '--json'])).stdout);
    assert.equal(s['documents'], 3);
    ws.write(
      'more.toml',
      '[db]\npath = "data/index.sqlite"\n[connectors.filesystem.docs]\nroot = "docs"\n' +
        '[connectors.filesystem.fresh]\nroot = "later"\n',
    );
    assert.match((await ws.kbctx(['-c', 'more.toml', 'stats'])).stdout, /filesystem:fresh\s+0\s+0\s+0\s+never\n/);
  });

  it('sources lists counts and status', async () => {
    const r = json((await ws.kbctx(['sources', '--json'])).stdout);
    const sources = (r['sources'] as Record<string, unknown>[]).map(({ last_run, ...s }) => ({
      ...s,
      last_run: { ...(last_run as object), ended_at: 'x' },
    }));
    const lastRun = { ended_at: 'x', errors: 0, failure: null };
    assert.deepEqual(sources, [
      {
        source: 'filesystem:docs',
        document_count: 2,
        chunk_count: 2,
        status: 'ok',
        last_run: lastRun,
        name: 'filesystem:docs',
        configured: true,
        healthy: true,
      },
      {
        source: 'filesystem:later',
        document_count: 1,
        chunk_count: 1,
        status: 'ok',
        last_run: lastRun,
        name: 'filesystem:later',
        configured: true,
        healthy: true,
      },
    ]);
  });

  it('export writes {documents, chunks} to stdout or a file', async () => {
    const out = json((await ws.kbctx(['export'])).stdout);
    assert.equal((out['documents'] as unknown[]).length, 3);
    assert.equal((out['chunks'] as unknown[]).length, 3);
    const r = await ws.kbctx(['export', '--output', 'dump.json']);
    assert.match(r.stdout, /Wrote 3 documents and 3 chunks to dump\.json/);
    assert.deepEqual(JSON.parse(readFileSync(ws.path('dump.json'), 'utf8')), out);
  });

  it('prints completions for bash, zsh and fish', async () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const r = await ws.kbctx(['completions', shell]);
      assert.equal(r.code, 0);
      assert.match(r.stdout, /sync/);
      assert.match(r.stdout, shell === 'fish' ? /complete -c kbctx/ : /complete -F _kbctx_complete kbctx/);
    }
    assert.equal((await ws.kbctx(['completions', 'powershell'])).code, 2);
  });

  it('--help, --version, unknown commands', async () => {
    const help = await ws.kbctx(['--help']);
    assert.equal(help.code, 0);
    for (const cmd of ['init', 'sync', 'search', 'get', 'sources', 'stats', 'export', 'completions'])
      assert.match(help.stdout, new RegExp(`\\n  ${cmd}\\b`));
    const version = await ws.kbctx(['--version']);
    assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
    assert.equal((await ws.kbctx(['frobnicate'])).code, 2);
  });

  it('config errors exit 3 naming the file and key', async () => {
    ws.write('bad.toml', '[retrieval]\nhybrid_alpha = 2\n');
    const r = await ws.kbctx(['-c', 'bad.toml', 'stats']);
    assert.equal(r.code, 3);
    assert.equal(r.stderr, 'error: bad.toml: retrieval.hybrid_alpha must be between 0 and 1\n');
    const env = await ws.kbctx(['stats'], { env: { KBCTX_CONFIG: 'missing.toml' } });
    assert.equal(env.code, 3);
    assert.match(env.stderr, /config file not found: missing\.toml/);
  });

  // A file that cannot be read, even by root: /proc/self/clear_refs is a regular file whose read fails (EINVAL; EACCES
  // when not root).
  it('files that fail to read are said in the summary and make the exit code non-zero (1); the rest is indexed', {
    skip: !existsSync('/proc/self/clear_refs'),
  }, async () => {
    ws.write(
      'unreadable.toml',
      '[db]\npath = "data/unreadable.sqlite"\n[connectors.filesystem.mixed]\nroot = "mixed"\nfollow_symlinks = true\n',
    );
    ws.write('mixed/fine.md', '# Fine\n\nA readable note.');
    symlinkSync('/proc/self/clear_refs', ws.path('mixed/unreadable.md'));
    const r = await ws.kbctx(['-c', 'unreadable.toml', 'sync', 'all']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /filesystem:mixed: fetched 2, upserted 1, .* errors 1 /);
    assert.match(r.stderr, /error unreadable\.md: /);
    assert.match(
      r.stderr,
      joinedRegExp(
        /1 item\(s\) of filesystem:mixed could not be read or indexed; /,
        /the rest was indexed, and their stored copies kept/,
      ),
    );
    const json = await ws.kbctx(['-c', 'unreadable.toml', 'sync', 'all', '--json']);
    assert.equal(json.code, 1);
    assert.equal((JSON.parse(json.stdout) as { connectors: { errors: number }[] }).connectors[0]?.errors, 1);
  });

  it('a failing connector is reported and sets the exit code; the others still sync', async () => {
    ws.write(
      'two.toml',
      '[db]\npath = "data/two.sqlite"\n[connectors.filesystem.docs]\nroot = "docs"\n' +
        '[connectors.filesystem.broken]\nroot = "no-such-dir"\n',
    );
    const r = await ws.kbctx(['-c', 'two.toml', 'sync', 'all']);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /filesystem:docs: fetched 2, upserted 2/);
    assert.match(r.stderr, /filesystem:broken: failed: .*no-such-dir does not exist/);
  });
});
