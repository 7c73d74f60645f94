// Rejected MCP requests are logged in summary (issue 29 item 17): a client sending the same bad
// request 50 times writes one line of that kind, and the repeats are counted in one summary line
// (at the end of the window, or when the server closes), never one line each.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { startTestServer } from '../helpers/server.ts';

const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18',
};

it(
  '50 rejected /mcp requests of two kinds log one line per ' + 'kind, then one summary line per kind with the count',
  async () => {
    const s = await startTestServer();
    try {
      for (let i = 0; i < 50; i++) {
        const notJsonRpc = await fetch(`${s.url}/mcp`, { method: 'POST', headers: HEADERS, body: '{"foo":1}' });
        assert.equal(notJsonRpc.status, 400);
        await notJsonRpc.arrayBuffer();
        // (A non-JSON content type never reaches the SDK: the transport answers 415 first, ADR 0140.)
        const badVersion = await fetch(`${s.url}/mcp`, {
          method: 'POST',
          headers: { ...HEADERS, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'ping' },
          body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
        });
        assert.equal(badVersion.status, 400);
        await badVersion.arrayBuffer();
      }
      const mcpLines = s.log.filter((l) => l.startsWith('mcp: '));
      assert.equal(mcpLines.length, 2, mcpLines.join('\n'));
      assert.match(mcpLines.join('\n'), /invalid-json-rpc-body/);
      assert.match(mcpLines.join('\n'), /modern-header-without-claim/);
    } finally {
      await s.close();
    }
    const summaries = s.log.filter((l) => /^mcp: 49 more like this/.test(l));
    assert.equal(summaries.length, 2, s.log.join('\n'));
  },
);
