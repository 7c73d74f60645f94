// Invalid params are the client's fault (issue 21): -32602 with a message naming the parameter, never
// -32603 Internal error. Through the official SDK client in both eras, and as raw JSON-RPC over HTTP
// (requests the typed client would not send).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { FUZZ_FILES, FUZZ_SCRIPTS } from '../fuzz/http-fuzz.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
const BROKEN_AGENT = '[agents.script.broken]\npath = "agents/broken.lua"\n';
const files = {
  ...FUZZ_FILES,
  'agents/broken.lua':
    'agent = { description = "Fails", arguments = {} }\nfunction agent.resolve(args) error("broken on purpose") end\n',
};
before(async () => (s = await startTestServer(FUZZ_SCRIPTS + BROKEN_AGENT, { extraTools: true, files })));
after(async () => {
  await s.close();
});

const INVALID_PARAMS = -32602;

/** The JSON-RPC error `promise` rejects with (fails if it resolves). */
async function rpcError(promise: Promise<unknown>): Promise<{ code: number; message: string }> {
  const error = await promise.then(
    () => assert.fail('expected a JSON-RPC error'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ProtocolError, String(error));
  return { code: error.code, message: error.message };
}

const eras = [
  { name: '2025 (initialize)', options: {} },
  { name: '2026-07-28 (discover)', options: { versionNegotiation: { mode: { pin: '2026-07-28' } } } },
] as const;

for (const era of eras) {
  describe(`invalid params through the official client, ${era.name}`, () => {
    let client: Client;
    before(async () => {
      client = new Client({ name: 'kbctx-test', version: '1.0.0' }, era.options);
      await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`)));
    });
    after(async () => client.close());

    it(
      'tools/call: wrong argument types and missing required ' +
        'ones are isError results naming the parameter (SEP-1303)',
      async () => {
        for (const [name, args, parameter] of [
          ['search', { query: 5 }, 'query'],
          ['search', {}, 'query'],
          ['search', { query: 'x', limit: 'ten' }, 'limit'],
          ['shout', { text: ['a'] }, 'text'],
          ['shout', {}, 'text'],
        ] as const) {
          const result = await client.callTool({ name, arguments: args });
          assert.equal(result.isError, true, `${name} ${JSON.stringify(args)}`);
          assert.match((result.content as { text: string }[])[0]!.text, new RegExp(`bad_request: .*'${parameter}'`));
        }
      },
    );

    it('tools/call with an unknown tool is -32602 naming it', async () => {
      assert.deepEqual(await rpcError(client.callTool({ name: 'nope', arguments: {} })), {
        code: INVALID_PARAMS,
        message: 'Unknown tool: nope',
      });
    });

    it('prompts/get: an unknown prompt and arguments of the wrong type are -32602 naming them', async () => {
      assert.equal((await rpcError(client.getPrompt({ name: 'nobody' }))).code, INVALID_PARAMS);
      const bad = await rpcError(client.getPrompt({ name: 'greeter', arguments: { who: 5 as unknown as string } }));
      assert.equal(bad.code, INVALID_PARAMS);
      assert.match(bad.message, /params\.arguments\.who: .*string/);
    });

    it('resources/read: a malformed document URI is -32602 naming the uri', async () => {
      const bad = await rpcError(client.readResource({ uri: 'kbctx://documents/%ZZ' }));
      assert.equal(bad.code, INVALID_PARAMS);
      assert.match(bad.message, /uri 'kbctx:\/\/documents\/%ZZ'/);
    });
  });
}

describe('invalid params as raw JSON-RPC over HTTP (2025-06-18)', () => {
  const call = async (method: string, params: unknown): Promise<{ code: number; message: string }> => {
    const res = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(params === undefined ? {} : { params }) }),
    });
    const text = await res.text();
    const data = text.startsWith('event:') ? (/^data: (.*)$/m.exec(text)?.[1] ?? '') : text;
    const error = (JSON.parse(data) as { error?: { code: number; message: string } }).error;
    assert.ok(error, `${method} ${JSON.stringify(params)} answered ${text}`);
    return error;
  };

  const cases: [string, unknown, RegExp][] = [
    ['prompts/get', {}, /^Invalid params for prompts\/get: params\.name: .*string/],
    ['prompts/get', { name: 7 }, /params\.name: .*string/],
    ['prompts/get', { name: 'greeter', arguments: { who: { x: 1 } } }, /params\.arguments\.who: .*string/],
    ['prompts/get', { name: 'greeter', arguments: 'who' }, /params\.arguments: /],
    ['resources/read', { uri: 5 }, /^Invalid params for resources\/read: params\.uri: .*string/],
    ['resources/read', undefined, /params: /],
    [
      'resources/read',
      { uri: 'kbctx://documents/%E0%A4%A' },
      /uri 'kbctx:\/\/documents\/%E0%A4%A' is not a valid document URI/,
    ],
    ['resources/list', { cursor: 5 }, /params\.cursor: .*string/],
    ['completion/complete', { x: 1 }, /^Invalid params for completion\/complete: params\.ref: /],
    ['logging/setLevel', { level: 'loud' }, /params\.level: /],
    ['tools/call', { name: 5 }, /^Invalid tools\/call request: params\.name: .*string/],
    ['tools/call', { name: 'search', arguments: [] }, /params\.arguments: /],
    ['tools/call', undefined, /params: /],
  ];
  for (const [method, params, message] of cases) {
    it(`${method} ${JSON.stringify(params) ?? 'without params'} → -32602 naming the parameter`, async () => {
      const error = await call(method, params);
      assert.equal(error.code, INVALID_PARAMS, error.message);
      assert.match(error.message, message);
    });
  }

  it('a server-side failure (a Lua agent raising an error) is still -32603', async () => {
    const error = await call('prompts/get', { name: 'broken', arguments: {} });
    assert.equal(error.code, -32603);
    assert.match(error.message, /broken on purpose/);
  });

  it('logged no internal error for any of them', () => {
    assert.deepEqual(
      s.log.filter((l) => /internal error/.test(l)),
      [],
    );
  });
});
