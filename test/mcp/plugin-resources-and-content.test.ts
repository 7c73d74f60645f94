// A plugin's MCP resources (the `resources` hook: fixed URIs and URI templates) and its tools' own
// MCP results (`content: true`: image, audio, embedded resource blocks) over a real server and the
// official SDK client, with the conformance fixture plugin (issue 29, item 16; ADR 0152); prompts whose
// messages are MCP content blocks (ADR 0153).
import '../../registry/bundled.ts';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createHttpHandler, openKbctx, type Kbctx, type KbctxHttpHandler } from '../../registry/index.ts';
import { REPO_ROOT, Workspace } from '../helpers/workspace.ts';

const FIXTURES = `${REPO_ROOT}test/fixtures/conformance-plugin/index.ts`;
const ws = new Workspace('kbctx-mcp-resources-');
let kbctx: Kbctx;
let handler: KbctxHttpHandler;
let server: Server;
let client: Client;

before(async () => {
  ws.config(`plugins = ["bundled", ${JSON.stringify(FIXTURES)}]\n`);
  kbctx = await openKbctx({ cwd: ws.dir });
  handler = createHttpHandler(kbctx, { log: () => undefined });
  server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  client = new Client({ name: 'test', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`)),
  );
});
after(async () => {
  await client.close();
  await handler.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await kbctx.close();
  ws.cleanup();
});

it('lists and reads a plugin resource and a resource template', async () => {
  const { resources } = await client.listResources();
  assert.ok(resources.some((r) => r.uri === 'test://static-text' && r.mimeType === 'text/plain'));
  const { resourceTemplates } = await client.listResourceTemplates();
  assert.ok(resourceTemplates.some((t) => t.uriTemplate === 'test://template/{id}/data'));
  const text = await client.readResource({ uri: 'test://static-text' });
  assert.deepEqual(text.contents, [
    { uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' },
  ]);
  const binary = await client.readResource({ uri: 'test://static-binary' });
  assert.equal((binary.contents[0] as { blob?: string }).blob?.startsWith('iVBOR'), true);
  const templated = await client.readResource({ uri: 'test://template/123/data' });
  assert.deepEqual(JSON.parse((templated.contents[0] as { text: string }).text), {
    id: '123',
    templateTest: true,
    data: 'Data for ID: 123',
  });
  await assert.rejects(client.readResource({ uri: 'test://template/1/2/data' }), /not found/i);
});

it("passes a content tool's MCP result on as it is (image, audio, embedded resource)", async () => {
  const image = await client.callTool({ name: 'test_image_content', arguments: {} });
  assert.deepEqual(
    (image.content as { type: string; mimeType: string }[]).map((c) => [c.type, c.mimeType]),
    [['image', 'image/png']],
  );
  const audio = await client.callTool({ name: 'test_audio_content', arguments: {} });
  assert.equal((audio.content as { type: string }[])[0]?.type, 'audio');
  const mixed = await client.callTool({ name: 'test_multiple_content_types', arguments: {} });
  assert.deepEqual(
    (mixed.content as { type: string }[]).map((c) => c.type),
    ['text', 'image', 'resource'],
  );
  const failed = await client.callTool({ name: 'test_error_handling', arguments: {} });
  assert.equal(failed.isError, true);
});

it("sends a plugin prompt's image and embedded-resource messages as MCP content blocks (ADR 0153)", async () => {
  const image = await client.getPrompt({ name: 'test_prompt_with_image' });
  assert.deepEqual(
    image.messages.map((m) => [m.role, m.content.type]),
    [
      ['user', 'image'],
      ['user', 'text'],
    ],
  );
  assert.equal((image.messages[0]!.content as { mimeType: string }).mimeType, 'image/png');
  const embedded = await client.getPrompt({
    name: 'test_prompt_with_embedded_resource',
    arguments: { resourceUri: 'test://example-resource' },
  });
  assert.deepEqual(embedded.messages[0]!.content, {
    type: 'resource',
    resource: {
      uri: 'test://example-resource',
      mimeType: 'text/plain',
      text: 'Embedded resource content for testing.',
    },
  });
});

it("shows a prompt's content blocks over REST as the agent built them", async () => {
  const address = server.address() as AddressInfo;
  const response = await fetch(`http://127.0.0.1:${address.port}/agents/test_prompt_with_image/prompt`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  assert.equal(response.status, 200);
  const prompt = (await response.json()) as { system: string; messages: { role: string; content: unknown }[] };
  assert.deepEqual(
    prompt.messages.map((m) => (typeof m.content === 'string' ? m.content : (m.content as { type: string }).type)),
    ['image', 'Please analyze the image above.'],
  );
});
