// A Context Harness workspace run unchanged through the real CLI: `.ctx/config.toml` found from a
// sub-folder, its script connector, tool and agent (written in Context Harness's documented formats,
// test/fixtures/ctx-workspace/), an unset ${VAR} failing only the connector that uses it.
import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REPO_ROOT, runKbctx, Workspace, type CliResult } from '../helpers/workspace.ts';

const ws = new Workspace('kbctx-ctx-');
const env = { JIRA_API_TOKEN: undefined, CTX_CONFIG: undefined };
// Run from a sub-folder: the config is found by walking up to the folder holding .ctx/.
const kbctx = (args: string[], extra: NodeJS.ProcessEnv = {}): Promise<CliResult> =>
  runKbctx(args, { cwd: ws.path('kb'), env: { ...env, ...extra } });
const json = (r: CliResult): Record<string, unknown> => JSON.parse(r.stdout) as Record<string, unknown>;

before(async () => {
  cpSync(path.join(REPO_ROOT, 'test/fixtures/ctx-workspace'), ws.dir, { recursive: true });
  await kbctx(['sync', 'all']);
});
after(() => ws.cleanup());

describe('a Context Harness workspace, unchanged', () => {
  it('finds .ctx/config.toml walking up, and says so', async () => {
    const r = await kbctx(['stats']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Config: {4}.*\.ctx\/config\.toml$/m);
    assert.match(
      r.stdout,
      /^Database: {2}.*\.ctx\/data\/ctx\.sqlite/m,
      'relative paths resolve against the workspace root',
    );
    assert.match((await kbctx(['--help'])).stdout, /Config in use: .*\.ctx\/config\.toml/);
  });

  it('an unset ${VAR} fails only the connector that uses it, naming the variable and the key', async () => {
    const all = await kbctx(['sync', 'all', '--json']);
    assert.equal(all.code, 3);
    const reports = json(all)['connectors'] as {
      connector: string;
      failure: { message: string } | null;
      upserted: number;
    }[];
    assert.equal(reports.find((r) => r.connector === 'filesystem:kb')?.failure, null);
    assert.equal(reports.find((r) => r.connector === 'script:changelog')?.failure, null);
    assert.match(
      reports.find((r) => r.connector === 'script:jira')?.failure?.message ?? '',
      /connectors\.script\.jira\.api_token uses \$\{JIRA_API_TOKEN\}.*not set/,
    );
    const one = await kbctx(['sync', 'script:jira']);
    assert.equal(one.code, 3);
    assert.match(one.stderr, /JIRA_API_TOKEN/);
    assert.equal((await kbctx(['sync', 'script:jira'], { JIRA_API_TOKEN: 'secret' })).code, 0, 'works once exported');
  });

  it('indexes script items with their Context Harness fields and searches them with --since and --source', async () => {
    const r = await kbctx(['search', 'release', '--source', 'script:changelog', '--since', '2026-01-06', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const results = json(r)['results'] as { title: string; updated_at: string }[];
    assert.deepEqual(
      results.map((x) => x.title),
      ['Release 2.4'],
    );
    assert.equal(results[0]?.updated_at, '2026-01-06T10:30:00.000Z');
  });

  it('search --source with an unknown source exits 4 and lists the sources', async () => {
    const r = await kbctx(['search', 'database', '--source', 'nosuch']);
    assert.equal(r.code, 4);
    assert.match(r.stderr, /source 'nosuch' does not exist.*filesystem:kb.*script:changelog/);
  });

  it('runs the Context Harness tool: string limits, sources() and get() field names', async () => {
    const r = await kbctx([
      'tool',
      'test',
      '../tools/kb-digest.lua',
      '--param',
      'topic=failover automation',
      '--param',
      'source=script:changelog',
      '--json',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const result = json(r)['result'] as Record<string, unknown>;
    assert.ok((result['healthy_sources'] as string[]).includes('filesystem:kb'));
    assert.deepEqual(result['first'], {
      title: 'Release 2.4',
      author: 'release-bot',
      created_at: '2026-01-05T09:00:00.000Z',
      content_type: 'text/markdown',
      chunks: 1,
    });
    const capped = json(await kbctx(['tool', 'test', '../tools/kb-digest.lua', '--param', 'topic=cache', '--json']));
    assert.equal((capped['result'] as { count: number }).count, 2, 'search_limit = "2" is a limit of 2');
  });

  it('accepts the table form context.search{query = …, limit = "1"}', async () => {
    ws.write(
      'tools/table-form.lua',
      'tool = { description = "t", parameters = {} }\nfunction tool.execute(p, context) return #context.search{ ' +
        'query = "cache", limit = "1" } end\n',
    );
    const r = await kbctx(['tool', 'test', '../tools/table-form.lua', '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(json(r)['result'], 1);
  });

  it('resolves the incident-responder agent with search_limit = "5"', async () => {
    const r = await kbctx(['agent', 'test', 'incident_responder', '--arg', 'service=database', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const out = json(r) as { system: string; messages: { content: string }[] };
    assert.match(out.system, /incident responder for database/);
    assert.match(out.messages[0]?.content ?? '', /Database failover runbook \(filesystem:kb\)/);
  });

  it('CTX_CONFIG names the config like -c', async () => {
    const r = await runKbctx(['stats', '--json'], { cwd: ws.dir, env: { ...env, CTX_CONFIG: '.ctx/config.toml' } });
    assert.equal(r.code, 0, r.stderr);
    assert.match(String(json(r)['config_file']), /\.ctx\/config\.toml$/);
  });
});
