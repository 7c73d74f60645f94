// A plugin tool's log messages and progress to the calling MCP client (`ctx.client`), over a real
// HTTP server in both protocol eras and over stdio, with the official SDK client and the conformance
// fixture plugin's test_tool_with_logging / test_tool_with_progress (issue 29, item 16; ADR 0153).
import '../../registry/bundled.ts';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  Client,
  StreamableHTTPClientTransport,
  type LoggingMessageNotification,
  type Progress,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createHttpHandler, openKbctx, type Kbctx, type KbctxHttpHandler } from '../../registry/index.ts';
import { KBCTX_BIN, REPO_ROOT, Workspace } from '../helpers/workspace.ts';

const FIXTURES = `${REPO_ROOT}test/fixtures/conformance-plugin/index.ts`;
const LOGGED = ['Tool execution started', 'Tool processing data', 'Tool execution completed'];
const LOG_LEVEL = 'io.modelcontextprotocol/logLevel';
const ws = new Workspace('kbctx-mcp-notify-');
let kbctx: Kbctx;
let handler: KbctxHttpHandler;
let server: Server;
let url: URL;

before(async () => {
  ws.config(`plugins = ["bundled", ${JSON.stringify(FIXTURES)}]\n`);
  kbctx = await openKbctx({ cwd: ws.dir });
  handler = createHttpHandler(kbctx, { log: () => undefined });
  server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
});
after(async () => {
  await handler.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await kbctx.close();
  ws.cleanup();
});

/** A client whose log notifications land in the returned list. */
function logging(client: Client): unknown[] {
  const logs: unknown[] = [];
  client.setNotificationHandler(
    'notifications/message',
    (n: LoggingMessageNotification) => void logs.push(n.params.data),
  );
  return logs;
}

async function progressOf(client: Client, meta: Record<string, unknown> = {}): Promise<Progress[]> {
  const steps: Progress[] = [];
  const result = await client.callTool(
    { name: 'test_tool_with_progress', arguments: {}, _meta: meta },
    { onprogress: (p) => void steps.push(p) },
  );
  assert.equal(result.isError, undefined);
  return steps;
}

describe('over HTTP, 2025 (stateless)', () => {
  let client: Client;
  before(async () => {
    client = new Client({ name: 'test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(url));
  });
  after(async () => client.close());

  it("sends the tool's log messages during the call", async () => {
    const logs = logging(client);
    await client.setLoggingLevel('debug');
    const result = await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    assert.deepEqual(result.content, [{ type: 'text', text: 'Tool with logging executed successfully' }]);
    assert.deepEqual(logs, LOGGED);
  });

  it("sends progress for the request's progressToken, growing to its total", async () => {
    const steps = await progressOf(client);
    assert.deepEqual(
      steps.map((p) => [p.progress, p.total]),
      [
        [0, 100],
        [50, 100],
        [100, 100],
      ],
    );
  });
});

describe('over HTTP, 2026-07-28 (per-request envelope)', () => {
  let client: Client;
  before(async () => {
    client = new Client({ name: 'test', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(url));
  });
  after(async () => client.close());

  it("logs at the request's logLevel, and nothing without one (SEP-2575)", async () => {
    const logs = logging(client);
    await client.callTool({ name: 'test_tool_with_logging', arguments: {}, _meta: { [LOG_LEVEL]: 'info' } });
    assert.deepEqual(logs.splice(0), LOGGED);
    await client.callTool({ name: 'test_tool_with_logging', arguments: {}, _meta: { [LOG_LEVEL]: 'warning' } });
    await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    assert.deepEqual(logs, []);
  });

  it("sends progress for the request's progressToken", async () => {
    assert.deepEqual(
      (await progressOf(client)).map((p) => p.progress),
      [0, 50, 100],
    );
  });
});

it('over stdio, logs only at or above the level of logging/setLevel, and reports progress', async () => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [KBCTX_BIN, 'serve', 'mcp', '--stdio'],
    cwd: ws.dir,
    env: { PATH: process.env['PATH'] ?? '', KBCTX_CONFIG: '' },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(transport);
  try {
    const logs = logging(client);
    await client.setLoggingLevel('warning');
    await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    await client.setLoggingLevel('info');
    await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    assert.deepEqual(logs, LOGGED);
    assert.deepEqual(
      (await progressOf(client)).map((p) => p.progress),
      [0, 50, 100],
    );
  } finally {
    await client.close();
  }
});

it('over REST the tool runs with a client that sends nothing', async () => {
  const response = await fetch(new URL('/tools/test_tool_with_logging', url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), {
    result: { content: [{ type: 'text', text: 'Tool with logging executed successfully' }] },
  });
});
