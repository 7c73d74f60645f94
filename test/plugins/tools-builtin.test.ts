// The tools-builtin plugin owns the built-in tools (search, get, sources), their commands and the
// answers of plugins' ctx.search/get/sources: dropping it ("!tools-builtin") removes them from the
// CLI, REST, MCP (and so the web page, which calls REST), and a plugin's ctx.search says why.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Workspace } from '../helpers/workspace.ts';
import { spawnServer, type KbctxServer } from '../helpers/kbctx-server.ts';

// A tool answering with ctx.search: the built-in tools' body, or the error when they are dropped.
const ASKER = `export default {
  name: 'acme-ask',
  version: '1.0.0',
  kbctx: '^0.2',
  apply(kernel) {
    kernel.hooks.tools.tap('acme-ask', (tools) => tools.add({
      name: 'ask', description: 'Searches through ctx', inputSchema: { type: 'object' },
      call: async (_params, ctx) => ({ titles: (await ctx.search({ query: 'otters' })).results.map((r) => r.title) }),
    }));
  },
};
`;

function workspace(plugins: string): Workspace {
  const ws = new Workspace();
  ws.write('kb/otters.md', '# Otters\n\nOtters hold hands while they sleep.\n');
  ws.write('plugins/ask.mjs', ASKER);
  ws.config(`plugins = ${plugins}\n[db]\npath = "index.sqlite"\n[connectors.filesystem.kb]\nroot = "kb"\n`);
  return ws;
}

const names = (listed: { tools: { name: string }[] }): string[] => listed.tools.map((t) => t.name).sort();

async function mcpToolNames(url: string): Promise<string[]> {
  const answer = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  const text = await answer.text();
  const json = text.startsWith('{')
    ? text
    : text
        .split('\n')
        .find((l) => l.startsWith('data: '))!
        .slice(6);
  return names((JSON.parse(json) as { result: { tools: { name: string }[] } }).result);
}

describe('tools-builtin loaded (the default)', () => {
  const ws = workspace('["bundled", "./plugins/ask.mjs"]');
  before(async () => assert.equal((await ws.kbctx(['sync', 'all'])).code, 0));
  after(() => ws.cleanup());

  it('kbctx search, get and sources are its commands; ctx.search answers with its search tool', async () => {
    const found = JSON.parse((await ws.kbctx(['search', 'otters', '--json'])).stdout) as {
      results: { id: string; title: string }[];
    };
    assert.deepEqual(
      found.results.map((r) => r.title),
      ['Otters'],
    );
    assert.equal(JSON.parse((await ws.kbctx(['get', found.results[0]!.id])).stdout).title, 'Otters');
    assert.equal(JSON.parse((await ws.kbctx(['sources', '--json'])).stdout).sources[0].source, 'filesystem:kb');
    const asked = await ws.kbctx(['tool', 'call', 'ask', '--json']);
    assert.deepEqual(JSON.parse(asked.stdout), { result: { titles: ['Otters'] } }, asked.stderr);
    const listed = JSON.parse((await ws.kbctx(['plugins', '--json'])).stdout) as {
      plugins: { name: string; hooks: string[]; provides: string[] }[];
    };
    const own = listed.plugins.find((p) => p.name === 'tools-builtin')!;
    assert.deepEqual([...own.hooks].sort(), ['commands', 'tools']);
    assert.ok(
      own.provides.includes('command:search') && own.provides.includes('service:kbctx.index-tools'),
      own.provides.join(', '),
    );
  });
});

describe('"!tools-builtin"', () => {
  const ws = workspace('["bundled", "!tools-builtin", "./plugins/ask.mjs"]');
  let server: KbctxServer;
  before(async () => {
    assert.equal((await ws.kbctx(['sync', 'all'])).code, 0);
    server = await spawnServer(ws, ['serve', 'mcp', '--bind', '127.0.0.1:0', '--no-watch']);
  });
  after(async () => {
    await server.stop();
    ws.cleanup();
  });

  it('the CLI has no search, get or sources command, and help lists none', async () => {
    for (const args of [['search', 'otters'], ['get', 'x'], ['sources']]) {
      const r = await ws.kbctx(args);
      assert.equal(r.code, 2, `${args[0]}: ${r.stderr}`);
      assert.match(r.stderr, new RegExp(`unknown command '${args[0]}'`));
    }
    const help = await ws.kbctx(['--help']);
    assert.equal(help.code, 0);
    assert.doesNotMatch(help.stdout, /^ {2}(search|get|sources)\b/m);
    assert.match(help.stdout, /^ {2}sync\b/m, 'guards the pattern');
  });

  it('REST and MCP list no built-in tool; POST /tools/search is 404', async () => {
    assert.deepEqual(names((await (await fetch(`${server.url}/tools/list`)).json()) as { tools: { name: string }[] }), [
      'ask',
    ]);
    assert.deepEqual(await mcpToolNames(server.url), ['ask']);
    const searched = await fetch(`${server.url}/tools/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"query":"otters"}',
    });
    assert.equal(searched.status, 404);
  });

  it("a plugin's ctx.search is a config error naming tools-builtin", async () => {
    const asked = await ws.kbctx(['tool', 'call', 'ask']);
    assert.equal(asked.code, 3, asked.stderr);
    assert.match(asked.stderr, /the tools-builtin plugin is not loaded/);
  });
});
