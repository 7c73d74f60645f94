// Hostile parameters over real sockets (issue 10, defects 1 and 4): deep nesting and huge strings are
// 400s on REST, MCP and the CLI, never 500s or stack overflows, and a script tool keeps answering
// concurrent valid calls after being fed deeply nested input.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const SCRIPTS = `
[tools.script.echo_x]
path = "tools/echo_x.lua"
[agents.script.greeter]
path = "agents/greeter.lua"
`;
const FILES = {
  'tools/echo_x.lua': `tool = { description = "Echoes x", parameters = { { name = "x", type = "string",
    required = true } } }
function tool.execute(p) return { x = p.x } end`,
  'agents/greeter.lua': `agent = { description = "Greets", arguments = { { name = "who" } } }
function agent.resolve(args) return { system = "Hello " .. tostring(args.who) } end`,
};

/** `levels` nested arrays around "a": the raw JSON text, built without recursion. */
const nestedJson = (levels: number): string => `${'['.repeat(levels)}"a"${']'.repeat(levels)}`;

let s: TestServer;
before(async () => (s = await startTestServer(SCRIPTS, { files: FILES })));
after(async () => s.close());

const postRaw = async (
  path: string,
  body: string,
): Promise<{ status: number; json: { error?: { code: string; message: string } } }> => {
  const res = await fetch(`${s.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return { status: res.status, json: (await res.json()) as { error?: { code: string; message: string } } };
};

describe('deep nesting', () => {
  it('runs a script tool with 25 levels of nesting, then serves 3 concurrent clients without a failure', async () => {
    const deep = await postRaw('/tools/echo_x', `{"x":"a","extra":${nestedJson(25)}}`);
    assert.equal(deep.status, 200, JSON.stringify(deep.json));
    const client = async (n: number): Promise<number[]> => {
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++)
        statuses.push((await postRaw('/tools/echo_x', JSON.stringify({ x: `c${n}-${i}` }))).status);
      return statuses;
    };
    const all = (await Promise.all([client(1), client(2), client(3)])).flat();
    assert.deepEqual([...new Set(all)], [200]);
  });

  it('answers 400 for nesting past the documented limit of 32, on every POST route', async () => {
    for (const levels of [40, 5000, 100_000]) {
      for (const path of ['/tools/echo_x', '/tools/search', '/tools/get', '/agents/greeter/prompt']) {
        const r = await postRaw(path, `{"x":"a","query":"fox","id":"x","who":"me","extra":${nestedJson(levels)}}`);
        assert.equal(r.status, 400, `${path} at ${levels} levels: ${JSON.stringify(r.json)}`);
        assert.match(r.json.error!.message, /nested more than 32 levels/);
      }
    }
    assert.equal((await postRaw('/tools/echo_x', '{"x":"still fine"}')).status, 200);
  });

  it('answers an MCP tools/call with 5,000 levels as a client error, and keeps serving', async () => {
    // Raw JSON-RPC: the SDK client itself overflows its stack serialising such a value.
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    };
    const body =
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo_x","arguments":{"x":"a","extra":` +
      `${nestedJson(5000)}}}}`;
    const res = await fetch(`${s.url}/mcp`, { method: 'POST', headers, body });
    const text = await res.text();
    assert.equal(res.status, 200);
    assert.match(text, /"isError":true/);
    assert.match(text, /nested more than 32 levels/);
    const client = new Client({ name: 'after-hostile', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`)));
    const ok = await client.callTool({ name: 'echo_x', arguments: { x: 'after' } });
    assert.match(JSON.stringify(ok), /after/);
    await client.close();
    assert.ok(!s.log.some((l) => /internal error|call stack/i.test(l)), s.log.join('\n'));
  });
});

describe('string lengths', () => {
  it('answers 400 naming the limit for a 50,000-character source filter and oversized query or id', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['/tools/search', { query: 'fox', source: 'x'.repeat(50_000) }, 'source'],
      ['/tools/search', { query: 'fox '.repeat(2000) }, 'query'],
      ['/tools/get', { id: 'y'.repeat(1000) }, 'id'],
      ['/tools/echo_x', { x: 'z'.repeat(70_000) }, 'x'],
    ];
    for (const [path, body, parameter] of cases) {
      const r = await postRaw(path, JSON.stringify(body));
      assert.equal(r.status, 400, `${path} ${parameter}`);
      assert.match(
        r.json.error!.message,
        new RegExp(`parameter '${parameter}' is \\d+ characters long; the limit is \\d+`),
      );
    }
  });
});
