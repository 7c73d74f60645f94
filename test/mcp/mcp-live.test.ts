// The live index over MCP (stdio, official SDK client, 2025 handshake): the read-only resource
// kbctx://sync/status, and notifications/resources/list_changed after a background sync changed documents.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { eventually } from '../helpers/live-server.ts';
import { KBCTX_BIN, Workspace } from '../helpers/workspace.ts';

let ws: Workspace;
before(() => {
  ws = new Workspace('kbctx-mcp-live-');
  ws.write('docs/a.md', '# Alpha\n\nFirst document.\n');
  ws.config('[connectors.filesystem.docs]\nroot = "docs"\n\n[sync]\ninterval = "off"\n');
});
after(() => ws.cleanup());

it(
  'lists and reads kbctx://sync/status; a file saved ' + 'afterwards brings notifications/resources/list_changed',
  async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [KBCTX_BIN, 'serve', 'mcp', '--stdio'],
      cwd: ws.dir,
      env: { PATH: process.env['PATH'] ?? '', KBCTX_CONFIG: '' },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    const client = new Client({ name: 'kbctx-live-test', version: '1.0.0' });
    let changes = 0;
    client.setNotificationHandler('notifications/resources/list_changed', () => void changes++);
    await client.connect(transport);
    try {
      const listed = await client.listResources();
      assert.equal(listed.resources[0]?.uri, 'kbctx://sync/status');
      // The server's start-up sync indexed docs/a.md (its changes may already have been announced).
      const status = await eventually(async () => {
        const read = await client.readResource({ uri: 'kbctx://sync/status' });
        const body = JSON.parse((read.contents[0] as { text: string }).text) as {
          connectors: { connector: string; state: string; last_finished_at: string | null }[];
        };
        return body.connectors[0]?.last_finished_at && /watching filesystem:docs/.test(stderr) ? body : undefined;
      }, 'the start-up sync');
      assert.equal(status.connectors[0]?.connector, 'filesystem:docs');
      const before = changes;
      ws.write('docs/b.md', '# Beta\n\nA second document.\n');
      await eventually(
        () => Promise.resolve(changes > before ? true : undefined),
        'notifications/resources/list_changed',
      );
      const after = await client.listResources();
      assert.ok(after.resources.some((r) => r.name === 'Beta'));
    } finally {
      await client.close();
    }
  },
);
