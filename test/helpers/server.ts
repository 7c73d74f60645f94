// Test servers: a temp workspace with a few documents, synced through the real CLI, then the real
// HTTP server (REST + MCP) started in-process on 127.0.0.1:0.
import '../../registry/bundled.ts'; // the bundled plugin set (core/app/bundled-set.ts)
import { loadConfig } from '../../core/config/load-config.ts';
import { openKbctx, type Kbctx } from '../../core/app/compose.ts';
import { buildHttpApp } from '../../plugins/transport-http/http-app.ts';
import { closeGracefully } from '../../plugins/transport-http/start-http-server.ts';
import {
  createMcpHttpHandler,
  listenLimitsOf,
  mcpHttpSurface,
  type McpHttpHandler,
} from '../../plugins/mcp-http/mcp-http-handler.ts';
import { createServerFactory } from '../../plugins/mcp-server/server-factory.ts';
import { restSurface } from '../../plugins/rest/rest-routes.ts';
import { VERSION } from '../../core/config/version.ts';
import { createWebSurface } from '../../plugins/web/create-web-surface.ts';
import { Workspace } from './workspace.ts';
import { serverConfigOf } from '../../plugins/transport-http/api.ts';
import { resolveTokens } from '../../plugins/transport-http/token-set.ts';
import { toolsOf } from '../../plugins/tool-registry/api.ts';
import { agentsOf } from '../../plugins/agents-inline/api.ts';
import type { Tool } from '../../plugins/tool-registry/api.ts';

export const DOCS: Record<string, string> = {
  'docs/fox.md': '# Foxes\n\nThe quick brown fox jumps over the lazy dog. Foxes live in dens.\n',
  'docs/sqlite.md': '# SQLite WAL\n\nWrite-ahead logging lets readers continue while a writer commits.\n',
  'docs/notes/tea.txt': 'Green tea is brewed at 80 degrees for two minutes.\n',
};

export const BASE_CONFIG = `
[connectors.filesystem.docs]
root = "docs"

[agents.inline.helper]
description = "Answers questions from the knowledge base"
tools = ["search", "get"]
system_prompt = "You answer from the knowledge base. Search first."
`;

export interface TestServer {
  ws: Workspace;
  kbctx: Kbctx;
  url: string;
  port: number;
  log: string[];
  close(): Promise<void>;
}

/** Non-built-in tools for tests of the generic paths (registered through the real registry). */
export const EXTRA_TOOLS: Tool[] = [
  {
    name: 'echo',
    description: 'Echoes its text.',
    params: [{ name: 'text', type: 'string', required: true }],
    builtin: false,
    readOnly: false,
    run: (params) => Promise.resolve({ echoed: params['text'] }),
  },
  {
    name: 'boom',
    description: 'Always fails unexpectedly.',
    params: [],
    builtin: false,
    readOnly: false,
    run: () => Promise.reject(new Error('kaboom')),
  },
];

/**
 * `serverToml` is appended to the config (e.g. a [server] section); `files` are written into the workspace (e.g. Lua
 * scripts).
 */
export async function startTestServer(
  serverToml = '',
  options: {
    extraTools?: boolean;
    files?: Record<string, string>;
    authToken?: string;
    bindHost?: string;
    /** Variables the config's token_env entries read (besides the process's own). */
    env?: Record<string, string>;
  } = {},
): Promise<TestServer> {
  const ws = new Workspace('kbctx-http-');
  for (const [file, text] of Object.entries({ ...DOCS, ...options.files })) ws.write(file, text);
  ws.config(BASE_CONFIG + serverToml);
  const sync = await ws.kbctx(['sync', 'all']);
  if (sync.code !== 0) throw new Error(`sync failed: ${sync.stderr}`);
  const config = loadConfig({ cwd: ws.dir, env: {} });
  const kbctx = openKbctx(config);
  if (options.extraTools) for (const tool of EXTRA_TOOLS) toolsOf(kbctx.kernel).register(tool);
  const failures = await kbctx.ready(); // as `serve` does
  if (failures.length > 0) throw new Error(`scripts not loaded: ${failures.map((f) => f.message).join('; ')}`);
  const log: string[] = [];
  const server = createServerFactory({
    tools: toolsOf(kbctx.kernel),
    agents: agentsOf(kbctx.kernel),
    version: VERSION,
    log: (l) => log.push(l),
    store: kbctx.store,
  });
  const mcp: McpHttpHandler = createMcpHttpHandler({
    server,
    maxBodyBytes: serverConfigOf(config).maxBodyBytes,
    listenLimits: listenLimitsOf(serverConfigOf(config)),
    log: (l) => log.push(l),
  });
  const web = createWebSurface({
    store: kbctx.store,
    connectorLabels: kbctx.index.connectorLabels,
    facts: {
      version: VERSION,
      configFile: config.file,
      workingDir: ws.dir,
      kbctxBin: 'bin/kbctx.js',
      embedder: null,
      defaultLimit: 12,
      maxLimit: 100,
      authTokenEnv: null,
      reranker: null,
    },
  });
  const listener = await buildHttpApp({
    version: VERSION,
    config: serverConfigOf(config),
    // what the server believes it binds (the Host guard follows it); it listens on 127.0.0.1
    bindHost: options.bindHost ?? '127.0.0.1',
    surfaces: [restSurface({ tools: toolsOf(kbctx.kernel), agents: agentsOf(kbctx.kernel) }), mcpHttpSurface(mcp), web],
    log: (l) => log.push(l),
    debug: (l) => log.push(`debug: ${l}`),
    // `authToken`: the token of `[server] auth_token_env` (named `default`); else the config's own tokens.
    tokens: resolveTokens(
      options.authToken === undefined
        ? serverConfigOf(config)
        : { ...serverConfigOf(config), authTokenEnv: 'KBCTX_TEST_TOKEN' },
      { ...process.env, ...options.env, KBCTX_TEST_TOKEN: options.authToken },
    ),
  });
  await listener.app.listen({ host: '127.0.0.1', port: 0 });
  const address = listener.server.address() as { port: number };
  return {
    ws,
    kbctx,
    url: `http://127.0.0.1:${address.port}`,
    port: address.port,
    log,
    async close() {
      await Promise.all([closeGracefully(listener, 100), mcp.close()]);
      await kbctx.close();
      ws.cleanup();
    },
  };
}
