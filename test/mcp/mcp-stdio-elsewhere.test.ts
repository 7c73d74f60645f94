// The stdio client configurations kbctx hands out (README: `kbctx serve mcp --stdio -c /abs/config.toml`;
// the web page's "Connect an agent" for each client) launched the way desktop clients launch them: from
// another working directory. Relative paths in the config ([db] path, connector roots, script paths)
// must resolve against the config's folder, so the server finds the synced index and the script tool.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { parse as parseToml } from 'smol-toml';
import { KBCTX_BIN, Workspace } from '../helpers/workspace.ts';

// The browser module that builds the page's configurations (plain JS outside this tsconfig: typed here).
type ClientConfig = { client: string; stdio: { text: string } };
const { clientConfigs } = (await import(
  new URL('../../plugins/web/client/lib/client-configs.js', import.meta.url).href
)) as {
  clientConfigs(v: {
    mcpUrl: string;
    token: string | null;
    tokenEnv: string;
    kbctxBin: string;
    configFile: string | null;
  }): ClientConfig[];
};

let project: Workspace;
let elsewhere: Workspace;
let configFile: string;

before(async () => {
  project = new Workspace('kbctx-stdio-project-');
  elsewhere = new Workspace('kbctx-stdio-elsewhere-');
  project.write('docs/signing.md', '# Signing keys\n\nRotate the signing keys every ninety days.\n');
  project.config(
    '[db]\npath = ".kbctx/kbctx.sqlite"\n\n[connectors.filesystem.docs]\nroot = "docs"\n\n[tools.script.digest]\n' +
      'path = "tools/digest.lua"\n',
  );
  assert.equal((await project.kbctx(['tool', 'init', 'digest'])).code, 0);
  assert.equal((await project.kbctx(['sync', 'all'])).code, 0);
  configFile = project.path('config/kbctx.toml');
});
after(() => {
  project.cleanup();
  elsewhere.cleanup();
});

/** Connects the official client to `command args` started in the other folder; searches and lists tools. */
async function searchFromElsewhere(command: string, args: string[]): Promise<void> {
  const env = { PATH: process.env['PATH'] ?? '', HOME: elsewhere.dir };
  const client = new Client({ name: 'kbctx-stdio-elsewhere', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command, args, cwd: elsewhere.dir, env, stderr: 'pipe' }));
  try {
    const result = await client.callTool({ name: 'search', arguments: { query: 'signing keys' } });
    const { results } = result.structuredContent as { results: { source_id: string }[] };
    assert.equal(results[0]?.source_id, 'signing.md', 'the synced index, not an empty one in the working directory');
    assert.ok(
      (await client.listTools()).tools.some((t) => t.name === 'digest'),
      'the script tool resolves against the config',
    );
  } finally {
    await client.close();
  }
  assert.deepEqual(
    readdirSync(elsewhere.dir).filter((f) => f !== '.cache'),
    [],
    'no stray data folder where the client started',
  );
}

describe('stdio MCP launched from another working directory', () => {
  it('README: kbctx serve mcp --stdio -c /abs/config.toml', async () => {
    await searchFromElsewhere(process.execPath, [KBCTX_BIN, 'serve', 'mcp', '--stdio', '-c', configFile]);
  });

  const configs = clientConfigs({
    mcpUrl: 'http://127.0.0.1:7331/mcp',
    token: null,
    tokenEnv: 'KBCTX_TOKEN',
    kbctxBin: KBCTX_BIN,
    configFile: '',
  });
  for (const { client } of configs) {
    it(`the web page's stdio configuration for ${client}`, async () => {
      const generated = clientConfigs({
        mcpUrl: 'http://127.0.0.1:7331/mcp',
        token: null,
        tokenEnv: 'KBCTX_TOKEN',
        kbctxBin: KBCTX_BIN,
        configFile,
      });
      const text = generated.find((c) => c.client === client)?.stdio.text ?? '';
      const { command, args } = launchOf(client, text);
      assert.ok(existsSync(command), command);
      await searchFromElsewhere(command, args);
    });
  }
});

/** The command line a client would run, read back from the text the page shows. */
function launchOf(client: string, text: string): { command: string; args: string[] } {
  if (client === 'Claude Code') {
    const words = text.split(' -- ')[1]?.split(' ') ?? [];
    return { command: words[0] ?? '', args: words.slice(1) };
  }
  if (client === 'Codex') {
    const entry = (parseToml(text) as { mcp_servers: { kbctx: { command: string; args: string[] } } }).mcp_servers
      .kbctx;
    return entry;
  }
  const json = JSON.parse(text) as {
    mcpServers?: Record<string, { command: string; args: string[] }>;
    servers?: Record<string, { command: string; args: string[] }>;
  };
  const entry = (json.mcpServers ?? json.servers)?.['kbctx'];
  assert.ok(entry, text);
  return { command: entry.command, args: entry.args };
}
