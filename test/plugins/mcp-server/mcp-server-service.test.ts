// The mcp-server plugin's service (plugins/mcp-server/api.ts), as a transport of one's own uses it:
// `kernel.use(mcpServerService).createFactory(...)` over a real synced index, its server connected to
// the real SDK client over the SDK's in-memory transport (no HTTP, no stdio).
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { mcpServerService } from '../../../plugins/mcp-server/api.ts';
import { IndexFixture } from '../../helpers/index-fixture.ts';
import { toolsOf } from '../../../plugins/tool-registry/api.ts';
import { agentsOf } from '../../../plugins/agents-inline/api.ts';

const fx = new IndexFixture();
before(async () => {
  fx.ws.write('docs/owl.md', '# Owls\n\nOwls hunt at night.\n');
  await fx.sync();
});
after(() => fx.close());

it('builds the server the MCP transports serve: tools, and documents paged from the store as resources', async () => {
  const { kernel } = fx.kbctx;
  const log: string[] = [];
  const factory = await kernel.services.use(mcpServerService).createFactory({
    tools: toolsOf(fx.kbctx.kernel),
    agents: agentsOf(fx.kbctx.kernel),
    version: '9.9.9',
    log: (line) => log.push(line),
    store: fx.kbctx.store,
    kernel,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = factory();
  await server.connect(serverSide);
  const client = new Client({ name: 'service-test', version: '1.0.0' });
  await client.connect(clientSide);
  try {
    assert.equal(client.getServerVersion()?.version, '9.9.9');
    assert.ok((await client.listTools()).tools.some((t) => t.name === 'search'));
    const { resources } = await client.listResources();
    assert.deepEqual(
      resources.map((r) => r.name),
      ['Owls'],
    );
    const read = await client.readResource({ uri: resources[0]!.uri });
    assert.match(String((read.contents[0] as { text?: string }).text), /Owls hunt at night/);
    assert.deepEqual(log, []);
  } finally {
    await client.close();
    await server.close();
  }
});

it('is provided by the bundled mcp-server plugin (kbctx plugins shows it)', () => {
  const plugin = fx.kbctx.kernel.plugins().find((p) => p.name === 'mcp-server');
  assert.deepEqual(plugin?.provides, ['service:kbctx.mcp-server']);
});
