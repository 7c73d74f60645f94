// Copy-paste MCP configurations for the common clients, filled in with this server's values: the
// HTTP endpoint (with the bearer token header when auth is on) and the stdio command line.

/**
 * @typedef {{ mcpUrl: string, token: string | null, tokenEnv: string, kbctxBin: string, configFile: string | null }} ServerValues
 * @typedef {{ client: string, where: string, http: { text: string, note?: string }, stdio: { text: string, note?: string } }} ClientConfig
 */

/** @param {ServerValues} v @returns {ClientConfig[]} */
export function clientConfigs(v) {
  const args = ['serve', 'mcp', '--stdio', ...(v.configFile ? ['-c', v.configFile] : [])];
  const headers = v.token === null ? undefined : { Authorization: `Bearer ${v.token}` };
  const stdioEntry = { command: v.kbctxBin, args };
  const json = (/** @type {unknown} */ value) => JSON.stringify(value, null, 2);
  return [
    {
      client: 'Claude Desktop',
      where: 'claude_desktop_config.json (Settings → Developer → Edit Config)',
      http: {
        text: v.mcpUrl,
        note: 'Claude Desktop adds remote servers in Settings → Connectors → Add custom connector, with this URL.',
      },
      stdio: { text: json({ mcpServers: { kbctx: stdioEntry } }) },
    },
    {
      client: 'Claude Code',
      where: 'a terminal in your project',
      http: {
        text: [
          'claude mcp add --transport http kbctx',
          shellQuote(v.mcpUrl),
          ...(headers ? ['--header', shellQuote(`Authorization: ${headers.Authorization}`)] : []),
        ].join(' '),
      },
      stdio: { text: ['claude mcp add kbctx --', shellQuote(v.kbctxBin), ...args.map(shellQuote)].join(' ') },
    },
    {
      client: 'Cursor',
      where: '~/.cursor/mcp.json or .cursor/mcp.json in a project',
      http: { text: json({ mcpServers: { kbctx: { url: v.mcpUrl, ...(headers ? { headers } : {}) } } }) },
      stdio: { text: json({ mcpServers: { kbctx: stdioEntry } }) },
    },
    {
      client: 'VS Code',
      where: '.vscode/mcp.json in a workspace (or MCP: Open User Configuration)',
      http: { text: json({ servers: { kbctx: { type: 'http', url: v.mcpUrl, ...(headers ? { headers } : {}) } } }) },
      stdio: { text: json({ servers: { kbctx: { type: 'stdio', ...stdioEntry } } }) },
    },
    {
      client: 'Codex',
      where: '~/.codex/config.toml',
      http: {
        text: [
          `[mcp_servers.kbctx]`,
          `url = ${tomlString(v.mcpUrl)}`,
          ...(headers ? [`bearer_token_env_var = ${tomlString(v.tokenEnv)}`] : []),
        ].join('\n'),
        ...(headers
          ? { note: `Codex reads the token from the environment: export ${v.tokenEnv}=<token> before starting it.` }
          : {}),
      },
      stdio: {
        text: [
          `[mcp_servers.kbctx]`,
          `command = ${tomlString(v.kbctxBin)}`,
          `args = [${args.map(tomlString).join(', ')}]`,
        ].join('\n'),
      },
    },
  ];
}

/** @param {string} s */
function shellQuote(s) {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}

/** @param {string} s */
function tomlString(s) {
  return JSON.stringify(s); // a JSON string is a valid TOML basic string
}
