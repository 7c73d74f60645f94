// The MCP endpoint through the official SDK client over Streamable HTTP, in both protocol eras:
// the 2025 initialize handshake (stateless) and 2026-07-28 (server/discover, per-request envelope).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
before(async () => (s = await startTestServer('', { extraTools: true })));
after(async () => s.close());

const eras = [
  { name: '2025 (initialize)', options: {}, version: /^2025-/ },
  {
    name: '2026-07-28 (discover)',
    options: { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    version: /^2026-07-28$/,
  },
] as const;

for (const era of eras) {
  describe(`MCP over HTTP, ${era.name}`, () => {
    let client: Client;
    before(async () => {
      client = new Client({ name: 'kbctx-test', version: '1.0.0' }, era.options);
      await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`)));
    });
    after(async () => client.close());

    it('negotiates the era and advertises instructions about search and get', () => {
      assert.match(client.getNegotiatedProtocolVersion() ?? '', era.version);
      assert.match(client.getInstructions() ?? '', /search/);
      assert.match(client.getInstructions() ?? '', /get/);
    });

    it('tools/list: registry schemas, output schemas, read-only built-ins', async () => {
      const { tools } = await client.listTools();
      assert.deepEqual(
        tools.map((t) => t.name),
        ['search', 'get', 'sources', 'boom', 'echo'],
      );
      const search = tools[0]!;
      assert.deepEqual(search.inputSchema['required'], ['query']);
      assert.equal(search.outputSchema?.type, 'object');
      assert.equal(search.annotations?.readOnlyHint, true);
      assert.equal(tools.find((t) => t.name === 'echo')?.annotations?.readOnlyHint, false);
    });

    it('tools/call search: text JSON and structuredContent agree with REST', async () => {
      const result = await client.callTool({ name: 'search', arguments: { query: 'quick brown fox' } });
      assert.notEqual(result.isError, true);
      const content = result.content as { type: string; text: string }[];
      assert.equal(content[0]?.type, 'text');
      const rest = await (
        await fetch(`${s.url}/tools/search`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"query":"quick brown fox"}',
        })
      ).json();
      assert.deepEqual(JSON.parse(content[0]!.text), rest);
      assert.deepEqual(result.structuredContent, rest);
    });

    it(
      'tools/call: bad arguments are an isError result naming ' + 'the parameter; unknown tools a protocol error',
      async () => {
        const bad = await client.callTool({ name: 'search', arguments: { query: 'x', limit: 'ten' } });
        assert.equal(bad.isError, true);
        assert.match((bad.content as { text: string }[])[0]!.text, /'limit'/);
        await assert.rejects(client.callTool({ name: 'nope', arguments: {} }), /Unknown tool/);
      },
    );

    it('tools/call: an unexpected failure is an isError result without internals', async () => {
      const res = await client.callTool({ name: 'boom', arguments: {} });
      assert.equal(res.isError, true);
      assert.doesNotMatch((res.content as { text: string }[])[0]!.text, /kaboom/);
    });

    it('prompts/list and prompts/get: agents, the system prompt as first message', async () => {
      const { prompts } = await client.listPrompts();
      assert.deepEqual(
        prompts.map((p) => p.name),
        ['helper'],
      );
      const prompt = await client.getPrompt({ name: 'helper', arguments: {} });
      assert.deepEqual(prompt.messages[0], {
        role: 'user',
        content: { type: 'text', text: 'You answer from the knowledge base. Search first.' },
      });
      await assert.rejects(client.getPrompt({ name: 'nobody', arguments: {} }), /Unknown prompt/);
    });

    it('documents are resources through the kbctx://documents/{id} template', async () => {
      const { resourceTemplates } = await client.listResourceTemplates();
      assert.equal(resourceTemplates[0]?.uriTemplate, 'kbctx://documents/{id}');
      const found = await client.callTool({ name: 'search', arguments: { query: 'green tea' } });
      const id = (found.structuredContent as { results: { id: string }[] }).results[0]!.id;
      const read = await client.readResource({ uri: `kbctx://documents/${id}` });
      assert.match((read.contents[0] as { text: string }).text, /Green tea/);
      for (const uri of ['kbctx://documents/missing', 'other://x']) {
        // The SDK client reads either wire code back as its ResourceNotFoundError; the wire code itself is checked
        // below.
        await assert.rejects(client.readResource({ uri }), /not found/);
      }
      // One MIME type for a document everywhere: template, list and read.
      const { resources } = await client.listResources();
      assert.deepEqual(
        [...new Set([resourceTemplates[0]?.mimeType, resources[0]?.mimeType, read.contents[0]?.mimeType])],
        ['text/plain'],
      );
    });

    it('resources/list lists the indexed documents, each readable', async () => {
      const { resources } = await client.listResources();
      assert.deepEqual(resources.map((r) => r.description).sort(), [
        'filesystem:docs · fox.md',
        'filesystem:docs · notes/tea.txt',
        'filesystem:docs · sqlite.md',
      ]);
      const tea = resources.find((r) => r.name === 'tea.txt');
      assert.ok(tea, 'a document without a heading is named by its file');
      const read = await client.readResource({ uri: tea.uri });
      assert.match((read.contents[0] as { text: string }).text, /Green tea/);
    });
  });
}

describe('resource not found on the wire', () => {
  const read = async (headers: Record<string, string>, params: Record<string, unknown>) => {
    const res = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'resources/read', params }),
    });
    const text = await res.text();
    const data = text.startsWith('event:') ? (/^data: (.*)$/m.exec(text)?.[1] ?? '') : text;
    return (JSON.parse(data) as { error: { code: number; data: unknown } }).error;
  };

  it("is -32002 with data.uri on the 2025 revisions (2026-07-28 keeps the SDK's -32602, read back above)", async () => {
    const uri = 'kbctx://documents/missing';
    assert.deepEqual(await read({ 'mcp-protocol-version': '2025-06-18' }, { uri }), {
      code: -32002,
      message: 'document not found: missing',
      data: { uri },
    });
  });
});

describe('answers on the wire (ADR 0132)', () => {
  const post = (version: string, extra: Record<string, string> = {}) =>
    fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': version,
        ...extra,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: {
          name: 'search',
          arguments: { query: 'quick brown fox' },
          ...(version === '2026-07-28'
            ? {
                _meta: {
                  'io.modelcontextprotocol/protocolVersion': version,
                  'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
                  'io.modelcontextprotocol/clientCapabilities': {},
                },
              }
            : {}),
        },
      }),
    });

  it('a JSON answer is sent whole with its Content-Length, not as a chunked stream', async () => {
    const res = await post('2026-07-28', { 'mcp-method': 'tools/call', 'mcp-name': 'search' });
    const body = Buffer.from(await res.arrayBuffer());
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(res.headers.get('transfer-encoding'), null);
    assert.equal(res.headers.get('content-length'), String(body.length));
    const message = JSON.parse(body.toString('utf8')) as {
      id: number;
      result: { structuredContent: { results: { title: string }[] } };
    };
    assert.equal(message.id, 3);
    assert.equal(message.result.structuredContent.results[0]?.title, 'Foxes');
  });

  it('a 2025 stateless answer still streams as server-sent events', async () => {
    const res = await post('2025-06-18');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.match(await res.text(), /^event: message\ndata: \{"result":/m);
  });

  it("both kinds carry the headers the hooks set (CORS for an Origin) along with the SDK's", async () => {
    const origin = { origin: 'http://localhost:6274' };
    for (const res of [
      await post('2026-07-28', { 'mcp-method': 'tools/call', 'mcp-name': 'search', ...origin }),
      await post('2025-06-18', origin),
    ]) {
      await res.arrayBuffer();
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('access-control-allow-origin'), '*');
      assert.match(res.headers.get('access-control-expose-headers') ?? '', /Mcp-Session-Id/);
    }
  });

  it(
    'an answer without a body (a notification, 202) has ' +
      'Content-Length 0; an SDK refusal keeps its status and type',
    async () => {
      const note = await fetch(`${s.url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      });
      assert.equal(note.status, 202);
      assert.equal(await note.text(), '');
      assert.equal(note.headers.get('content-length'), '0');
      const refused = await fetch(`${s.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/html' },
        body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      });
      const body = Buffer.from(await refused.arrayBuffer());
      assert.equal(refused.status, 406);
      assert.match(refused.headers.get('content-type') ?? '', /^application\/json/);
      assert.equal(refused.headers.get('content-length'), String(body.length));
    },
  );
});
