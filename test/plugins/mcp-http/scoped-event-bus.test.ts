// MCP `subscriptions/listen` streams hear of a sync only when its source is in their token's scope (ADR 0225): the
// SDK's handler with kbctx's bus and server, official SDK clients whose requests run under a token's origin as the
// HTTP transport runs them (plugins/mcp-http/mcp-http-handler.ts), in process.
import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler } from '@modelcontextprotocol/server';
import type { AccessScope } from '../../../core/domain/access-scope.ts';
import { withRequestOrigin } from '../../../core/app/request-origin.ts';
import { createServerFactory } from '../../../plugins/mcp-server/server-factory.ts';
import { ScopedEventBus } from '../../../plugins/mcp-http/scoped-event-bus.ts';
import { eventually } from '../../helpers/live-server.ts';
import { IndexFixture } from '../../helpers/index-fixture.ts';
import { toolsOf } from '../../../plugins/tool-registry/api.ts';
import { agentsOf } from '../../../plugins/agents-inline/api.ts';

const fx = new IndexFixture();
const clients: Client[] = [];
after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await fx.close();
});

it('a listen stream is told of changes in its scope only; an unscoped one of every change', async () => {
  await fx.kbctx.ready();
  const server = createServerFactory({
    tools: toolsOf(fx.kbctx.kernel),
    agents: agentsOf(fx.kbctx.kernel),
    version: '0',
    log: () => {},
  });
  const errors: Error[] = [];
  const bus = new ScopedEventBus((error) => errors.push(error));
  const handler = createMcpHandler(server, { bus });

  /** A 2026-07-28 client whose every request the handler serves under `scope`; its list_changed count. */
  async function listener(scope: AccessScope | undefined): Promise<() => number> {
    const scoped: typeof fetch = (input, init) =>
      withRequestOrigin({ token: 't', scope }, () => handler.fetch(new Request(input, init)));
    const client = new Client(
      { name: 'scope-test', version: '1' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    let heard = 0;
    client.setNotificationHandler('notifications/resources/list_changed', () => void heard++);
    await client.connect(new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), { fetch: scoped }));
    clients.push(client);
    await client.listen({ resourcesListChanged: true });
    return () => heard;
  }
  const git = await listener({ sources: ['git:*'] });
  const notes = await listener({ sources: ['filesystem:notes'], paths: ['public/**'] });
  const all = await listener(undefined);

  bus.resourcesChanged('git:docs');
  await eventually(async () => (git() === 1 && all() === 1 ? true : undefined), 'the git change');
  bus.resourcesChanged('filesystem:notes');
  // One stream's events arrive in order: had the git change reached `notes`, it would have come first.
  await eventually(async () => (notes() === 1 && all() === 2 ? true : undefined), 'the notes change');
  assert.deepEqual([git(), notes(), all()], [1, 1, 2]);
  assert.deepEqual(errors, []);
  await handler.close();
});
