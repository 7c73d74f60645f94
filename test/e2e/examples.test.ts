// The scripts in examples/ run by the real CLI: the GitHub-issues-style connector against a local
// HTTP server (pagination, auth, incremental `since`), the related-docs tool and the researcher agent.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startUpstream, type Upstream } from '../helpers/http-server.ts';
import { REPO_ROOT, Workspace } from '../helpers/workspace.ts';

interface Issue {
  number: number;
  title: string;
  body: string;
  updated_at: string;
  pull_request?: object;
}

const issues: Issue[] = [
  {
    number: 1,
    title: 'Login is flaky on Safari',
    body: 'The login form times out on Safari about one time in five.',
    updated_at: '2024-05-01T10:00:00Z',
  },
  {
    number: 2,
    title: 'Add dark mode',
    body: 'Users ask for a dark theme in the dashboard.',
    updated_at: '2024-05-02T10:00:00Z',
  },
  {
    number: 3,
    title: 'Bump dependencies',
    body: 'Routine update.',
    updated_at: '2024-05-03T10:00:00Z',
    pull_request: {},
  },
  { number: 4, title: 'Crash when exporting CSV', body: '', updated_at: '2024-05-04T10:00:00Z' },
];
const seenAuth: string[] = [];

const ws = new Workspace('kbctx-examples-');
let server: Upstream;
before(async () => {
  server = await startUpstream((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== '/repos/acme/widgets/issues') return false;
    seenAuth.push(req.headers.authorization ?? '');
    const perPage = Number(url.searchParams.get('per_page'));
    const page = Number(url.searchParams.get('page'));
    const since = url.searchParams.get('since');
    const matching = issues.filter((i) => !since || i.updated_at >= since);
    const body = matching.slice((page - 1) * perPage, page * perPage).map((i) => ({
      ...i,
      html_url: `https://example.test/acme/widgets/issues/${i.number}`,
      user: { login: 'ana' },
      labels: [{ name: 'bug' }],
      state: 'open',
      created_at: '2024-04-01T00:00:00Z',
    }));
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    return true;
  });
  const ex = (p: string): string => `${REPO_ROOT}examples/${p}`;
  ws.config(`[db]
path = "index.sqlite"
[connectors.script.issues]
path = "${ex('connectors/github-issues/connector.lua')}"
base_url = "${server.url}"
repo = "acme/widgets"
token = "sekret"
per_page = "2"
[tools.script.related_docs]
path = "${ex('tools/related-docs/tool.lua')}"
[agents.script.researcher]
path = "${ex('agents/researcher/agent.lua')}"
timeout = 30
`);
});
after(async () => {
  ws.cleanup();
  await server.close();
});

describe('examples', () => {
  it('connector test lists the issues (no pull requests) without writing', async () => {
    const r = await ws.kbctx([
      'connector',
      'test',
      `${REPO_ROOT}examples/connectors/github-issues/connector.lua`,
      '--source',
      'issues',
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stdout,
      '1\t#1 Login is flaky on Safari\n2\t#2 Add dark mode\n4\t#4 Crash when exporting CSV\n3 item(s), ' +
        'checkpoint "2024-05-04T10:00:00Z"\n',
    );
    assert.ok(seenAuth.every((a) => a === 'Bearer sekret'));
  });

  it('sync indexes the issues, then syncs incrementally from the checkpoint', async () => {
    const first = await ws.kbctx(['sync', 'script:issues']);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /script:issues: fetched 3, upserted 3/);
    issues.push({
      number: 5,
      title: 'Password reset email missing',
      body: 'No email arrives after a reset request.',
      updated_at: '2024-05-05T10:00:00Z',
    });
    const second = await ws.kbctx(['sync', 'script:issues']);
    assert.match(second.stdout, /script:issues: fetched 2, upserted 1, chunks written 1, deleted 0, unchanged 1/);
    const search = await ws.kbctx(['search', 'safari login', '--json']);
    const top = (JSON.parse(search.stdout) as { results: { title: string; source_url: string }[] }).results[0];
    assert.equal(top?.title, '#1 Login is flaky on Safari');
    assert.equal(top?.source_url, 'https://example.test/acme/widgets/issues/1');
  });

  it('the related-docs tool searches and reads the best document', async () => {
    const r = await ws.kbctx([
      'tool',
      'test',
      `${REPO_ROOT}examples/tools/related-docs/tool.lua`,
      '--source',
      'related_docs',
      '--param',
      'question=password reset email',
      '--json',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const result = (
      JSON.parse(r.stdout) as { result: { best: { title: string; opening: string }; related: unknown[] } }
    ).result;
    assert.equal(result.best.title, '#5 Password reset email missing');
    assert.match(result.best.opening, /No email arrives/);
    assert.ok(result.related.length >= 1);
  });

  it('the researcher agent builds its prompt from search results; topic is required', async () => {
    const r = await ws.kbctx(['agent', 'test', 'researcher', '--arg', 'topic=export crash', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const prompt = JSON.parse(r.stdout) as {
      source: string;
      system: string;
      tools: string[];
      messages: { role: string }[];
    };
    assert.equal(prompt.source, 'lua');
    assert.match(
      prompt.system,
      /Start from these documents:\n- #4 Crash when exporting CSV \(id [0-9a-f-]+, script:issues\)/,
    );
    assert.deepEqual(prompt.tools, ['search', 'get']);
    assert.deepEqual(
      prompt.messages.map((m) => m.role),
      ['user', 'assistant'],
    );
    const missing = await ws.kbctx(['agent', 'test', 'researcher']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /missing required argument 'topic'/);
  });
});
