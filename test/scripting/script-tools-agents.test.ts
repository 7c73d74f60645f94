// Script tools and agents through the real composition root: registered from config, validated by
// the shared ToolRegistry/AgentRegistry, run in real Lua workers, with the context bridge over a
// real SQLite index.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { KbctxError } from '../../core/domain/errors.ts';
import { IndexFixture } from '../helpers/index-fixture.ts';
import { toolsOf } from '../../plugins/tool-registry/api.ts';
import { agentsOf } from '../../plugins/agents-inline/api.ts';

const code =
  (expected: string) =>
  (e: unknown): boolean => {
    assert.ok(e instanceof KbctxError, String(e));
    assert.equal(e.code, expected, e.message);
    return true;
  };

describe('script tools and agents', () => {
  const fx = new IndexFixture(`
[connectors.filesystem.docs]
root = "docs"
[tools.script.echo]
path = "tools/echo.lua"
greeting = "hi kbctx"
[tools.script.kb]
path = "tools/kb.lua"
[tools.script.slow]
path = "tools/slow.lua"
timeout = 0.5
[tools.script.broken]
path = "tools/broken.lua"
[agents.script.guide]
path = "agents/guide.lua"
audience = "operators"
[agents.script.nosystem]
path = "agents/nosystem.lua"
[agents.inline.plain]
description = "Plain"
tools = ["search"]
system_prompt = "Be brief."
`);
  before(async () => {
    fx.ws.write(
      'docs/keys.md',
      '# Rotating signing keys\n\nGenerate a new key pair, publish it, then retire the old signing key.',
    );
    fx.ws.write('docs/deploy.md', '# Deploying\n\nDeploys run from the main branch every weekday.');
    fx.ws.write(
      'tools/echo.lua',
      `
tool = { name = "echo", version = "2.1", description = "Echo things",
  parameters = {
    { name = "text", type = "string", required = true, description = "What to echo" },
    { name = "times", type = "integer", default = 2 },
    { name = "mode", enum = { "loud", "quiet" }, default = "quiet" },
  } }
function tool.execute(params, context)
  return { text = string.rep(params.text, params.times), mode = params.mode, greeting = context.config.greeting,
           global_context = context == _G.context, extra = params.extra }
end`,
    );
    fx.ws.write(
      'tools/kb.lua',
      `
tool = { description = "", parameters = { { name = "q", required = true } } }
function tool.execute(params, context)
  local results = context.search(params.q, { limit = 1 })
  local doc = context.get(results[1].id)
  local ok, err = pcall(context.get, "no-such-id")
  return { hits = #results, title = doc.title, chunk0 = doc.chunks[1].index, text = doc.chunks[1].text, body = doc.body,
           sources = context.sources(), missing = err, via_method = #context:search(params.q) }
end`,
    );
    // Its top level outlasts its 0.5 s time-out: reading the metadata at start-up gets at least 10 s
    // (META_FLOOR_SECS) and the tool is still listed; a call runs the top level too, and times out.
    fx.ws.write(
      'tools/slow.lua',
      'sleep(1)\ntool = { parameters = {} }\nfunction tool.execute() while true do end end\n',
    );
    fx.ws.write('tools/broken.lua', 'tool = { parameters = { { type = "string" } } }\nfunction tool.execute() end\n');
    fx.ws.write(
      'agents/guide.lua',
      `
agent = { description = "A guide", tools = { "search" },
  arguments = { { name = "topic", description = "Topic", required = true }, { name = "tone" } } }
function agent.resolve(args, config, context)
  local r = context.search(args.topic, { limit = 1 })
  return { system = "Guide for " .. config.audience .. " on " .. args.topic .. ": "
             .. (r[1] and r[1].title or "nothing"),
           messages = { { role = "user", content = "Tell me about " .. args.topic }, { content = "Sure." } } }
end`,
    );
    fx.ws.write('agents/nosystem.lua', 'agent = {}\nfunction agent.resolve() return { tools = {} } end\n');
    await fx.sync('filesystem:docs');
  });
  after(() => fx.close());

  it('loads script tools with JSON Schema; a broken one is reported, the rest load', async () => {
    const failures = await fx.kbctx.ready();
    assert.deepEqual(
      failures.map((f) => f.label),
      ['tool:broken'],
    );
    assert.match(failures[0]!.message, /tool:broken: tool\.parameters\[1\]: needs a `name`/);
    const list = toolsOf(fx.kbctx.kernel).list();
    assert.deepEqual(
      list.map((t) => t.name),
      ['search', 'get', 'sources', 'echo', 'kb', 'slow'],
    );
    const echo = list.find((t) => t.name === 'echo')!;
    assert.equal(echo.builtin, false);
    assert.equal(echo.description, 'Echo things');
    assert.deepEqual(echo.parameters, {
      type: 'object',
      properties: {
        text: { type: 'string', description: 'What to echo' },
        times: { type: 'integer', default: 2 },
        mode: { type: 'string', default: 'quiet', enum: ['loud', 'quiet'] },
      },
      required: ['text'],
    });
    assert.equal(list.find((t) => t.name === 'kb')!.description, 'Lua tool: kb');
  });

  it('calls validate, default, pass extra keys through and hand the config section to the script', async () => {
    await fx.kbctx.ready();
    const tools = toolsOf(fx.kbctx.kernel);
    assert.deepEqual(await tools.call('echo', { text: 'ab', extra: [1, 2] }), {
      text: 'abab',
      mode: 'quiet',
      greeting: 'hi kbctx',
      global_context: true,
      extra: [1, 2],
    });
    await assert.rejects(
      tools.call('echo', {}),
      (e: unknown) => code('bad_request')(e) && /missing required parameter 'text'/.test((e as Error).message),
    );
    await assert.rejects(tools.call('echo', { text: 'x', times: 1.5 }), /parameter 'times' must be an integer/);
    await assert.rejects(tools.call('echo', { text: 'x', mode: 'shout' }), /must be one of "loud", "quiet"/);
    await assert.rejects(tools.call('echo', [1]), code('bad_request'));
    await assert.rejects(tools.call('nope', {}), code('not_found'));
  });

  it('the context bridge answers search, get (with chunks) and sources from the index', async () => {
    await fx.kbctx.ready();
    const out = (await toolsOf(fx.kbctx.kernel).call('kb', { q: 'rotate signing keys' })) as Record<string, unknown>;
    assert.equal(out['hits'], 1);
    assert.equal(out['title'], 'Rotating signing keys');
    assert.equal(out['chunk0'], 0);
    assert.match(String(out['text']), /retire the old signing key/);
    assert.match(String(out['body']), /Generate a new key pair/);
    assert.match(String(out['missing']), /^kb\.lua:6: document not found: no-such-id$/);
    assert.equal(out['via_method'], 1);
    // Lua has no null: last_run's failure (null) does not cross the bridge.
    const sources = (out['sources'] as Record<string, unknown>[]).map(({ last_run, ...s }) => ({
      ...s,
      last_run: { ...(last_run as object), ended_at: 'x' },
    }));
    assert.deepEqual(sources, [
      {
        source: 'filesystem:docs',
        document_count: 2,
        chunk_count: 2,
        status: 'ok',
        last_run: { ended_at: 'x', errors: 0 },
        name: 'filesystem:docs',
        configured: true,
        healthy: true,
      },
    ]);
  });

  it('a runaway tool times out (timeout code) and script errors keep their line', async () => {
    await fx.kbctx.ready();
    await assert.rejects(
      toolsOf(fx.kbctx.kernel).call('slow', {}),
      (e: unknown) => code('timeout')(e) && /tool:slow timed out after 0.5 s/.test((e as Error).message),
    );
  });

  it('script agents: list, required arguments, resolve with context and config', async () => {
    await fx.kbctx.ready();
    const agents = agentsOf(fx.kbctx.kernel);
    assert.deepEqual(
      agents.list().map((a) => [a.name, a.source]),
      [
        ['guide', 'lua'],
        ['nosystem', 'lua'],
        ['plain', 'toml'],
      ],
    );
    const guide = agents.get('guide');
    assert.deepEqual(guide.arguments, [
      { name: 'topic', description: 'Topic', required: true },
      { name: 'tone', description: '', required: false },
    ]);
    assert.equal(guide.description, 'A guide');
    assert.equal(agents.get('nosystem').description, 'Lua agent: nosystem');
    await assert.rejects(
      agents.resolve('guide', {}),
      (e: unknown) => code('bad_request')(e) && /missing required argument 'topic'/.test((e as Error).message),
    );
    const prompt = await agents.resolve('guide', { topic: 'deploys' });
    assert.deepEqual(prompt, {
      system: 'Guide for operators on deploys: Deploying',
      tools: ['search'],
      messages: [
        { role: 'user', content: 'Tell me about deploys' },
        { role: 'assistant', content: 'Sure.' },
      ],
    });
    await assert.rejects(
      agents.resolve('nosystem', {}),
      (e: unknown) =>
        code('script_error')(e) && /must return a table with a `system` string/.test((e as Error).message),
    );
    await assert.rejects(agents.resolve('missing', {}), code('not_found'));
  });
});
