// The third-party TypeScript plugin of docs/plugins-reference.md (examples/plugins/acme.ts) end to end: its
// connector, document redaction and skipping, rank boost, tool, agent, CLI command and transport,
// through the real CLI, REST and MCP (official SDK client) on a real server.
import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { spawnServer, type KbctxServer } from '../helpers/kbctx-server.ts';
import { KBCTX_BIN, REPO_ROOT, runKbctx, Workspace } from '../helpers/workspace.ts';

const CONFIG = `plugins = ["bundled", "./plugins/acme.ts"]

[db]
path = "data/kb.sqlite"

[connectors.tickets.main]
tickets = [
  { id = "T-1", title = "Login broken", text = "Users cannot log in after the upgrade. password: hunter2" },
  { id = "T-2", title = "Urgent: deploy stuck", text = "The deploy job cannot log in to the registry." },
  { id = "T-3", title = "DRAFT ideas", text = "Maybe log in with passkeys." },
]

[plugin.acme]
boost = "urgent"
`;

let ws: Workspace;
const cli = (args: string[]) => runKbctx(['-c', 'kbctx.toml', ...args], { cwd: ws.dir });

before(async () => {
  ws = new Workspace();
  ws.write('kbctx.toml', CONFIG);
  ws.write('plugins/.keep', '');
  copyFileSync(`${REPO_ROOT}examples/plugins/acme.ts`, ws.path('plugins/acme.ts'));
  const sync = await cli(['sync', 'all']);
  assert.equal(sync.code, 0, sync.stderr);
});
after(() => ws.cleanup());

describe('a third-party TypeScript plugin through the CLI', () => {
  it('its connector, document and rank taps: redacted, drafts skipped, boosted first', async () => {
    const found = await cli(['search', 'log in', '--json']);
    assert.equal(found.code, 0, found.stderr);
    const results = (JSON.parse(found.stdout) as { results: { id: string; title: string; source: string }[] }).results;
    assert.deepEqual(
      results.map((r) => r.title),
      ['Urgent: deploy stuck', 'Login broken'],
    );
    const doc = await cli(['get', results[1]!.id, '--json']);
    assert.match(doc.stdout, /password: \[redacted\]/);
    assert.doesNotMatch(doc.stdout, /hunter2/);
  });

  it('its command runs as a kbctx subcommand', async () => {
    const hello = await cli(['acme-hello']);
    assert.equal(hello.code, 0, hello.stderr);
    assert.equal(hello.stdout, 'hello from acme\n');
  });

  it('kbctx plugins lists it with its origin, hooks and what it provides', async () => {
    const listed = await cli(['plugins', '--json']);
    const acme = (
      JSON.parse(listed.stdout) as { plugins: { name: string; origin: string; hooks: string[]; provides: string[] }[] }
    ).plugins.find((p) => p.name === 'acme');
    assert.equal(acme?.origin, 'path');
    assert.deepEqual([...acme!.hooks].sort(), [
      'agents',
      'commands',
      'createConnector.for("tickets")',
      'createTransport.for("acme")',
      'document',
      'rank',
      'tools',
    ]);
    assert.ok(acme!.provides.includes('tool:acme_open_tickets'));
  });

  it('its tool and agent run from the CLI', async () => {
    const tool = await cli(['tool', 'call', 'acme_open_tickets', '--param', 'word=log', '--json']);
    assert.equal(tool.code, 0, tool.stderr);
    assert.deepEqual(JSON.parse(tool.stdout), { result: { word: 'log', tickets: 2 } });
    const missing = await cli(['tool', 'call', 'acme_open_tickets']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /word/);
    const agent = await cli(['agent', 'test', 'acme-triage', '--arg', 'ticket=T-3']);
    assert.equal(agent.code, 0, agent.stderr);
    assert.match(agent.stdout, /Start with ticket T-3/);
  });
});

describe('a third-party TypeScript plugin over REST and MCP', () => {
  let server: KbctxServer;
  before(async () => {
    server = await spawnServer(ws, ['-c', 'kbctx.toml', 'serve', 'mcp', '--bind', '127.0.0.1:0', '--no-watch']);
  });
  after(() => server.stop());

  it('REST: the tool, the agent, and search with the rank boost', async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const tool = await post('/tools/acme_open_tickets', { word: 'log' });
    assert.equal(tool.status, 200);
    assert.deepEqual(await tool.json(), { result: { word: 'log', tickets: 2 } });
    const missing = await post('/tools/acme_open_tickets', {});
    assert.equal(missing.status, 400);
    const prompt = await post('/agents/acme-triage/prompt', { ticket: 'T-1' });
    assert.equal(prompt.status, 200);
    assert.match(JSON.stringify(await prompt.json()), /Start with ticket T-1/);
    const search = (await (await post('/tools/search', { query: 'log in' })).json()) as {
      results: { title: string }[];
    };
    assert.equal(search.results[0]?.title, 'Urgent: deploy stuck');
  });

  it('MCP: tools/list, tools/call and prompts/get with the official client', async () => {
    const client = new Client({ name: 'acme-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    try {
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === 'acme_open_tickets'));
      const called = await client.callTool({ name: 'acme_open_tickets', arguments: { word: 'deploy' } });
      assert.match(JSON.stringify(called.content), /\\"tickets\\":1/);
      const prompt = await client.getPrompt({ name: 'acme-triage', arguments: { ticket: 'T-2' } });
      assert.match(JSON.stringify(prompt.messages), /Start with ticket T-2/);
    } finally {
      await client.close();
    }
  });
});

describe('a third-party transport', () => {
  it('kbctx serve acme starts it and it answers with the index', async () => {
    const child = spawn(process.execPath, [KBCTX_BIN, '-c', 'kbctx.toml', 'serve', 'acme', '--bind', '127.0.0.1:0'], {
      cwd: ws.dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, KBCTX_CONFIG: '' },
    });
    const exit = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.setEncoding('utf8').on('data', (d: string) => {
          out += d;
          const m = /acme search at (\S+)/.exec(out);
          if (m) resolve(m[1]!);
        });
        void exit.then((code) => reject(new Error(`exited ${code}`)));
      });
      const body = (await (await fetch(`${url}deploy`)).json()) as { results: { title: string }[] };
      assert.equal(body.results[0]?.title, 'Urgent: deploy stuck');
    } finally {
      child.kill('SIGTERM');
      assert.equal(await exit, 0);
    }
  });

  it('an unknown transport is a usage error listing the transports', async () => {
    const r = await cli(['serve', 'nosuch']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /no transport named 'nosuch'; transports: mcp, stdio, acme/);
  });
});
