// A registry extension, once enabled with `kbctx registry add`, is served like any script: the real
// `kbctx serve mcp` process answers it over REST and MCP (official SDK client). Before `add`, it is not.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { KBCTX_BIN, Workspace } from './helpers/workspace.ts';

const ws = new Workspace('kbctx-registry-serve-');

before(async () => {
  ws.write('docs/fox.md', '# Foxes\n\nFoxes live in dens.\n');
  ws.write(
    'team-registry/registry.toml',
    `[registry]\nname = "team"\n\n[tools.shout]\npath = "tools/shout/tool.lua"\ndescription = "Upper-cases ` +
      `text"\ntags = ["text"]\n\n[connectors.notes]\npath = "connectors/notes/connector.lua"\ndescription = "Team ` +
      `notes"\n\n[agents.fox-expert]\npath = "agents/fox-expert/agent.lua"\ndescription = "Knows foxes"\ntools = ` +
      `["search"]\n`,
  );
  ws.write(
    'team-registry/tools/shout/tool.lua',
    'tool = { description = "Upper-cases text", parameters = { { name = "text", type = "string", required = true ' +
      '} } }\nfunction tool.execute(params, context)\n  return { shouted = string.upper(params.text), docs = ' +
      '#context.search("foxes") }\nend\n',
  );
  ws.write(
    'team-registry/agents/fox-expert/agent.lua',
    'agent = { description = "Knows foxes", tools = { "search" }, arguments = { { name = "topic", required = ' +
      'true } } }\nfunction agent.resolve(args, config, context)\n  return { system = "You know foxes. Topic: " .. ' +
      'args.topic, messages = { { role = "user", content = "Tell me" } } }\nend\n',
  );
  ws.write(
    'team-registry/connectors/notes/connector.lua',
    'connector = { name = "notes" }\nfunction connector.scan(config)\n  return { { source_id = "n1", title = ' +
      '"Badger note", body = "Badgers dig setts." }, { source_id = "n2", title = "Owl note", body = "Owls hunt at ' +
      'night." } }\nend\n',
  );
  ws.config(
    `[db]\npath = "index.sqlite"\n\n[connectors.filesystem.docs]\nroot = "docs"\n\n[registries.team]\npath = ` +
      `"${ws.path('team-registry')}"\n`,
  );
  assert.equal((await ws.kbctx(['sync', 'all'])).code, 0);
});
after(() => ws.cleanup());

async function withServer(fn: (url: string) => Promise<void>): Promise<void> {
  const child = spawn(process.execPath, [KBCTX_BIN, 'serve', 'mcp', '--bind', '127.0.0.1:0'], {
    cwd: ws.dir,
    env: { ...process.env, KBCTX_CONFIG: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exit = new Promise((resolve) => child.on('exit', resolve));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        const m = /Listening on (\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.on('exit', (code) => reject(new Error(`server exited ${code}`)));
    });
    await fn(url);
  } finally {
    child.kill('SIGTERM');
    await exit;
  }
}

const post = (url: string, body: unknown): Promise<Response> =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('registry extensions over REST and MCP', () => {
  it('are not served before they are enabled', async () => {
    await withServer(async (url) => {
      assert.equal((await post(`${url}/tools/shout`, { text: 'hi' })).status, 404);
    });
  });

  it('registry connectors sync once added, and added tools and agents are listed by the CLI', async () => {
    assert.equal((await ws.kbctx(['sync', 'script:notes'])).code, 4, 'not configured before add');
    assert.equal((await ws.kbctx(['registry', 'add', 'connectors/notes'])).code, 0);
    const sync = await ws.kbctx(['sync', 'script:notes']);
    assert.equal(sync.code, 0, sync.stderr);
    assert.match(sync.stdout, /script:notes: fetched 2, upserted 2/);
    assert.match((await ws.kbctx(['search', 'badgers'])).stdout, /Badger note/);
  });

  it('are served over REST and MCP once added', async () => {
    assert.equal((await ws.kbctx(['registry', 'add', 'tools/shout'])).code, 0);
    assert.equal((await ws.kbctx(['registry', 'add', 'agents/fox-expert'])).code, 0);
    assert.match((await ws.kbctx(['tool', 'list'])).stdout, /shout/);
    assert.match((await ws.kbctx(['agent', 'list'])).stdout, /fox-expert/);
    await withServer(async (url) => {
      const rest = await post(`${url}/tools/shout`, { text: 'hi' });
      assert.equal(rest.status, 200);
      assert.deepEqual(await rest.json(), { result: { shouted: 'HI', docs: 1 } });
      assert.equal((await post(`${url}/tools/shout`, {})).status, 400, 'parameters are validated');
      const agents = (await (await fetch(`${url}/agents/list`)).json()) as {
        agents: { name: string; source: string }[];
      };
      assert.ok(agents.agents.some((a) => a.name === 'fox-expert' && a.source === 'lua'));

      const client = new Client({ name: 'registry-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
      try {
        const tools = await client.listTools();
        assert.ok(tools.tools.some((t) => t.name === 'shout'));
        const called = await client.callTool({ name: 'shout', arguments: { text: 'mcp' } });
        assert.notEqual(called.isError, true);
        assert.deepEqual(called.structuredContent, { shouted: 'MCP', docs: 1 });
        const prompt = await client.getPrompt({ name: 'fox-expert', arguments: { topic: 'dens' } });
        assert.match(JSON.stringify(prompt.messages), /Topic: dens/);
      } finally {
        await client.close();
      }
    });
  });
});
