// Script tools and agents served by the real HTTP server: REST status codes (400/404/408/500) and
// the matching MCP results (official SDK client), and /health answering while a script runs away.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const SCRIPTS = `
[tools.script.shout]
path = "tools/shout.lua"
suffix = "!"
[tools.script.spin]
path = "tools/spin.lua"
timeout = 1
[tools.script.fail]
path = "tools/fail.lua"
[agents.script.guide]
path = "agents/guide.lua"
[agents.script.stuck]
path = "agents/stuck.lua"
timeout = 1
[agents.script.nosystem]
path = "agents/nosystem.lua"
`;
const FILES = {
  'tools/shout.lua': `tool = { description = "Shouts text", parameters = {
  { name = "text", type = "string", required = true }, { name = "times", type = "integer", default = 1 } } }
function tool.execute(p, context) return { text = string.rep(string.upper(p.text),
  p.times) .. context.config.suffix } end`,
  'tools/spin.lua': 'tool = { parameters = {} }\nfunction tool.execute() while true do end end\n',
  'tools/fail.lua': 'tool = { parameters = {} }\nfunction tool.execute()\n  error("boom")\nend\n',
  'agents/guide.lua': `agent = { description = "Guides", tools = { "search" }, arguments = { { name = "topic",
    required = true } } }
function agent.resolve(args, config, context)
  local r = context.search(args.topic, { limit = 1 })
  return { system = "About " .. args.topic .. ": " .. r[1].title, messages = { { role = "user", content = "go" } } }
end`,
  'agents/stuck.lua': 'agent = {}\nfunction agent.resolve() sleep(60) end\n',
  'agents/nosystem.lua': 'agent = {}\nfunction agent.resolve() return {} end\n',
};

let s: TestServer;
before(async () => (s = await startTestServer(SCRIPTS, { files: FILES })));
after(async () => s.close());

const post = async (path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> => {
  const res = await fetch(`${s.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const errorOf = (r: { body: Record<string, unknown> }): { code: string; message: string } =>
  r.body['error'] as { code: string; message: string };

describe('script tools over REST', () => {
  it('GET /tools/list shows script tools with their JSON Schema', async () => {
    const { tools } = (await (await fetch(`${s.url}/tools/list`)).json()) as {
      tools: { name: string; builtin: boolean; parameters: unknown }[];
    };
    const shout = tools.find((t) => t.name === 'shout');
    assert.deepEqual(shout, {
      name: 'shout',
      description: 'Shouts text',
      builtin: false,
      parameters: {
        type: 'object',
        properties: { text: { type: 'string' }, times: { type: 'integer', default: 1 } },
        required: ['text'],
      },
    });
  });

  it('200 {result}, 400 naming the parameter, 404 unknown, 500 with the Lua message and line', async () => {
    assert.deepEqual(await post('/tools/shout', { text: 'hi', times: 2 }), {
      status: 200,
      body: { result: { text: 'HIHI!' } },
    });
    const bad = await post('/tools/shout', { times: 2 });
    assert.equal(bad.status, 400);
    assert.equal(errorOf(bad).code, 'bad_request');
    assert.match(errorOf(bad).message, /missing required parameter 'text'/);
    assert.equal((await post('/tools/shout', { text: 'x', times: 'two' })).status, 400);
    assert.equal((await post('/tools/nope', {})).status, 404);
    const fail = await post('/tools/fail', {});
    assert.equal(fail.status, 500);
    assert.deepEqual(errorOf(fail), { code: 'script_error', message: 'tool:fail: fail.lua:3: boom' });
  });

  it('408 at the time-out, while /health keeps answering', async () => {
    const started = performance.now();
    const spinning = post('/tools/spin', {});
    const health = await fetch(`${s.url}/health`);
    assert.equal(health.status, 200);
    assert.ok(performance.now() - started < 900, '/health answered while the script spins');
    const r = await spinning;
    assert.equal(r.status, 408);
    assert.deepEqual(errorOf(r), { code: 'timeout', message: 'tool:spin timed out after 1 s' });
    assert.ok(performance.now() - started < 5000);
  });
});

describe('script agents over REST', () => {
  it('/agents/list and /agents/{name}/prompt: 200, 400, 404, 408, 500', async () => {
    const { agents } = (await (await fetch(`${s.url}/agents/list`)).json()) as {
      agents: { name: string; source: string; arguments: unknown }[];
    };
    assert.deepEqual(
      agents.find((a) => a.name === 'guide'),
      {
        name: 'guide',
        description: 'Guides',
        tools: ['search'],
        source: 'lua',
        arguments: [{ name: 'topic', description: '', required: true }],
      },
    );
    const ok = await post('/agents/guide/prompt', { topic: 'foxes' });
    assert.deepEqual(ok, {
      status: 200,
      body: { system: 'About foxes: Foxes', tools: ['search'], messages: [{ role: 'user', content: 'go' }] },
    });
    assert.equal((await post('/agents/guide/prompt', {})).status, 400);
    assert.equal((await post('/agents/nobody/prompt', {})).status, 404);
    assert.equal((await post('/agents/stuck/prompt', {})).status, 408);
    const broken = await post('/agents/nosystem/prompt', {});
    assert.equal(broken.status, 500);
    assert.match(errorOf(broken).message, /must return a table with a `system` string/);
  });

  it('an unknown argument is a 400 naming it and the known ones (issue 21)', async () => {
    const r = await post('/agents/guide/prompt', { topic: 'foxes', tpoic: 'typo' });
    assert.equal(r.status, 400);
    assert.deepEqual(errorOf(r), {
      code: 'bad_request',
      message: "unknown argument 'tpoic' for agent 'guide'; known arguments: topic",
    });
    const none = await post('/agents/stuck/prompt', { topic: 'x' });
    assert.equal(none.status, 400);
    assert.equal(errorOf(none).message, "unknown argument 'topic' for agent 'stuck'; it takes no arguments");
  });
});

describe('scripts over MCP', () => {
  let client: Client;
  before(async () => {
    client = new Client({ name: 'kbctx-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`)));
  });
  after(async () => client.close());

  it(
    'tools/list and tools/call: result, invalid parameters, ' + 'time-out and script error as isError results',
    async () => {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.find((t) => t.name === 'shout')?.inputSchema['required'], ['text']);
      const ok = await client.callTool({ name: 'shout', arguments: { text: 'a' } });
      assert.notEqual(ok.isError, true);
      assert.deepEqual(ok.structuredContent, { text: 'A!' });
      const text = (r: { content: unknown }): string => (r.content as { text: string }[])[0]!.text;
      const bad = await client.callTool({ name: 'shout', arguments: {} });
      assert.equal(bad.isError, true);
      assert.match(text(bad), /bad_request: missing required parameter 'text'/);
      const spin = await client.callTool({ name: 'spin', arguments: {} });
      assert.equal(spin.isError, true);
      assert.match(text(spin), /timeout: tool:spin timed out after 1 s/);
      const fail = await client.callTool({ name: 'fail', arguments: {} });
      assert.equal(fail.isError, true);
      assert.match(text(fail), /script_error: tool:fail: fail\.lua:3: boom/);
    },
  );

  it('prompts/list and prompts/get: arguments, resolved messages, errors', async () => {
    const { prompts } = await client.listPrompts();
    assert.deepEqual(prompts.find((p) => p.name === 'guide')?.arguments, [
      { name: 'topic', description: '', required: true },
    ]);
    const prompt = await client.getPrompt({ name: 'guide', arguments: { topic: 'foxes' } });
    assert.deepEqual(
      prompt.messages.map((m) => [m.role, (m.content as { text: string }).text]),
      [
        ['user', 'About foxes: Foxes'],
        ['user', 'go'],
      ],
    );
    await assert.rejects(client.getPrompt({ name: 'guide', arguments: {} }), /missing required argument 'topic'/);
    await assert.rejects(client.getPrompt({ name: 'stuck', arguments: {} }), /timed out after 1 s/);
    await assert.rejects(
      client.getPrompt({ name: 'nosystem', arguments: {} }),
      /must return a table with a `system` string/,
    );
    await assert.rejects(
      client.getPrompt({ name: 'guide', arguments: { topic: 'foxes', tpoic: 'typo' } }),
      /unknown argument 'tpoic' for agent 'guide'; known arguments: topic/,
    );
  });
});
