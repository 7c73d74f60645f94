// A plugin tool's `inputSchema` is honoured whole (issue 29): top-level keywords (additionalProperties,
// required, oneOf) are checked over REST, MCP (the official client) and the CLI, `tools/list` advertises
// the schema exactly as declared, a TypeScript plugin's tool is listed under its plugin's name, and keys
// that could reach a prototype (`__proto__`, `constructor`, `prototype`) never reach the plugin.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { spawnServer, type KbctxServer } from '../helpers/kbctx-server.ts';
import { runKbctx, Workspace } from '../helpers/workspace.ts';

const SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: { n: { type: 'integer' }, a: { type: 'string' }, b: { type: 'string' }, opts: { type: 'object' } },
  required: ['n'],
  oneOf: [{ required: ['a'] }, { required: ['b'] }],
};

// The tool answers what it received: its own keys, and whether its object's prototype was reached.
const PLUGIN = `export default {
  name: 'strict-tools', version: '1.0.0', kbctx: '^0.2',
  apply(kernel) {
    kernel.hooks.tools.tap('strict-tools', (tools) => tools.add({
      name: 'strict', description: 'a tool with top-level schema keywords',
      inputSchema: ${JSON.stringify(SCHEMA)},
      call: async (params) => ({ keys: Object.keys(params), polluted: Object.assign({}, params).polluted ?? null,
        plain: Object.getPrototypeOf(params) === Object.prototype }),
    }));
  },
};
`;

let ws: Workspace;
let server: KbctxServer;
before(async () => {
  ws = new Workspace();
  ws.write('kbctx.toml', 'plugins = ["bundled", "./strict.mjs"]\n[db]\npath = "data/kb.sqlite"\n');
  ws.write('strict.mjs', PLUGIN);
  server = await spawnServer(ws, ['-c', 'kbctx.toml', 'serve', 'mcp', '--bind', '127.0.0.1:0', '--no-watch']);
});
after(async () => {
  await server.stop();
  ws.cleanup();
});

const post = (body: string) =>
  fetch(`${server.url}/tools/strict`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
const HOSTILE = [
  '{"n":2,"a":"x","__proto__":{"polluted":true}}',
  '{"n":2,"a":"x","opts":{"constructor":{"prototype":{"polluted":true}}}}',
  '{"n":2,"a":"x","opts":{"prototype":{}}}',
];

describe('a plugin tool with top-level schema keywords', () => {
  it(
    'REST: additionalProperties, required and oneOf at the top ' +
      'level are 400s naming the fault; a valid call is 200',
    async () => {
      const ok = await post('{"n":2,"a":"x"}');
      assert.equal(ok.status, 200);
      assert.deepEqual(await ok.json(), { result: { keys: ['n', 'a'], polluted: null, plain: true } });
      const cases: [string, RegExp][] = [
        ['{"n":2,"a":"x","extra":1}', /unknown parameter 'extra'/],
        ['{"a":"x"}', /missing required parameter 'n'/],
        ['{"n":2}', /parameters must match exactly one schema in oneOf/],
        ['{"n":2,"a":"x","b":"y"}', /parameters must match exactly one schema in oneOf/],
        ['{"n":2.5,"a":"x"}', /parameter 'n' must be an integer/],
      ];
      for (const [body, message] of cases) {
        const r = await post(body);
        assert.equal(r.status, 400, body);
        const error = ((await r.json()) as { error: { code: string; message: string } }).error;
        assert.equal(error.code, 'bad_request', body);
        assert.match(error.message, message, body);
      }
    },
  );

  it('REST: GET /tools/list advertises the schema exactly as declared', async () => {
    const { tools } = (await (await fetch(`${server.url}/tools/list`)).json()) as {
      tools: { name: string; parameters: unknown }[];
    };
    assert.deepEqual(tools.find((t) => t.name === 'strict')?.parameters, SCHEMA);
  });

  it('REST: prototype keys never reach the plugin (400 naming the key)', async () => {
    for (const body of HOSTILE) {
      const r = await post(body);
      assert.equal(r.status, 400, body);
      assert.equal(((await r.json()) as { error: { code: string } }).error.code, 'bad_request');
    }
  });

  it('MCP: tools/list carries the whole schema; the same faults and prototype keys are refused', async () => {
    const client = new Client({ name: 'schema-whole-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.find((t) => t.name === 'strict')?.inputSchema, SCHEMA);
      const call = (args: Record<string, unknown>) =>
        client.callTool({ name: 'strict', arguments: args }).then(
          (result) => ({ text: JSON.stringify(result.content), isError: result.isError === true }),
          (error: { message: string }) => ({ text: error.message, isError: true }),
        );
      const good = await call({ n: 2, b: 'y' });
      assert.equal(good.isError, false, good.text);
      const extra = await call({ n: 2, a: 'x', extra: 1 });
      assert.equal(extra.isError, true);
      assert.match(extra.text, /unknown parameter 'extra'/);
      const neither = await call({ n: 2 });
      assert.equal(neither.isError, true);
      assert.match(neither.text, /oneOf/);
      // The SDK's argument parsing already drops an own `__proto__` key: the tool sees a plain object.
      const proto = await call(JSON.parse(HOSTILE[0]!) as Record<string, unknown>);
      assert.equal(proto.isError, false, proto.text);
      assert.match(proto.text, /\\"keys\\":\[\\"n\\",\\"a\\"\],\\"polluted\\":null,\\"plain\\":true/);
      for (const body of HOSTILE.slice(1)) {
        const hostile = await call(JSON.parse(body) as Record<string, unknown>);
        assert.equal(hostile.isError, true, `${body}: ${hostile.text}`);
        assert.match(hostile.text, /is not accepted/, body);
      }
    } finally {
      await client.close();
    }
  });

  it('CLI: `kbctx tool call` checks the whole schema and refuses prototype keys (exit 2)', async () => {
    const call = (...params: string[]) =>
      runKbctx(['-c', 'kbctx.toml', 'tool', 'call', 'strict', ...params.flatMap((p) => ['--param', p])], {
        cwd: ws.dir,
      });
    const good = await call('n=2', 'a=x');
    assert.equal(good.code, 0, good.stderr);
    assert.deepEqual(JSON.parse(good.stdout), { keys: ['n', 'a'], polluted: null, plain: true });
    const extra = await call('n=2', 'a=x', 'extra=1');
    assert.equal(extra.code, 2, extra.stderr);
    assert.match(extra.stderr, /unknown parameter 'extra'/);
    const both = await call('n=2', 'a=x', 'b=y');
    assert.equal(both.code, 2, both.stderr);
    assert.match(both.stderr, /oneOf/);
    for (const hostile of ['__proto__={"polluted":true}', 'opts={"constructor":{"prototype":{"polluted":true}}}']) {
      const r = await call('n=2', 'a=x', hostile);
      assert.equal(r.code, 2, `${hostile}: ${r.stdout}${r.stderr}`);
      assert.match(r.stderr, /is not accepted/);
    }
  });

  it('CLI: `kbctx tool list` labels the tool with its plugin, not "(script)"', async () => {
    const r = await runKbctx(['-c', 'kbctx.toml', 'tool', 'list'], { cwd: ws.dir });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^strict \(strict-tools\)$/m);
    assert.match(r.stdout, /^search \(built-in\)$/m);
  });
});
