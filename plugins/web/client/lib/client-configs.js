// Copy-paste MCP configurations for the common clients, filled in with this server's values: the
// HTTP endpoint (with the bearer token header when auth is on), the stdio command line, and the stdio bridge to this
// running server (`serve stdio --attach`, ADR 0218: the token in the client's env block, never in its arguments).

/**
 * @typedef {{ mcpUrl: string, token: string | null, tokenEnv: string, kbctxBin: string, configFile: string | null }} ServerValues
 * @typedef {{ client: string, where: string, http: { text: string, note?: string }, attach: { text: string, note?: string }, stdio: { text: string, note?: string } }} ClientConfig
 */

/** @param {ServerValues} v @returns {ClientConfig[]} */
export function clientConfigs(v) {
  const args = ['serve', 'mcp', '--stdio', ...(v.configFile ? ['-c', v.configFile] : [])];
  const headers = v.token === null ? undefined : { Authorization: `Bearer ${v.token}` };
  const stdioEntry = { command: v.kbctxBin, args };
  const attachArgs = ['serve', 'stdio', '--attach', v.mcpUrl, ...(v.token === null ? [] : ['--token-env', v.tokenEnv])];
  const attachEnv = v.token === null ? undefined : { [v.tokenEnv]: v.token };
  const attachEntry = { command: v.kbctxBin, args: attachArgs, ...(attachEnv ? { env: attachEnv } : {}) };
  const json = (/** @type {unknown} */ value) => JSON.stringify(value, null, 2);
  return [
    {
      client: 'Claude Desktop',
      where: 'claude_desktop_config.json (Settings → Developer → Edit Config)',
      http: {
        text: v.mcpUrl,
        note: 'Claude Desktop adds remote servers in Settings → Connectors → Add custom connector, with this URL.',
      },
      attach: { text: json({ mcpServers: { kbctx: attachEntry } }) },
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
      attach: {
        text: [
          'claude mcp add kbctx',
          ...(attachEnv ? ['--env', shellQuote(`${v.tokenEnv}=${v.token}`)] : []),
          '--',
          shellQuote(v.kbctxBin),
          ...attachArgs.map(shellQuote),
        ].join(' '),
      },
      stdio: { text: ['claude mcp add kbctx --', shellQuote(v.kbctxBin), ...args.map(shellQuote)].join(' ') },
    },
    {
      client: 'Cursor',
      where: '~/.cursor/mcp.json or .cursor/mcp.json in a project',
      http: { text: json({ mcpServers: { kbctx: { url: v.mcpUrl, ...(headers ? { headers } : {}) } } }) },
      attach: { text: json({ mcpServers: { kbctx: attachEntry } }) },
      stdio: { text: json({ mcpServers: { kbctx: stdioEntry } }) },
    },
    {
      client: 'VS Code',
      where: '.vscode/mcp.json in a workspace (or MCP: Open User Configuration)',
      http: { text: json({ servers: { kbctx: { type: 'http', url: v.mcpUrl, ...(headers ? { headers } : {}) } } }) },
      attach: { text: json({ servers: { kbctx: { type: 'stdio', ...attachEntry } } }) },
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
      attach: {
        text: [
          `[mcp_servers.kbctx]`,
          `command = ${tomlString(v.kbctxBin)}`,
          `args = [${attachArgs.map(tomlString).join(', ')}]`,
          ...(attachEnv ? [`env = { ${tomlString(v.tokenEnv)} = ${tomlString(v.token ?? '')} }`] : []),
        ].join('\n'),
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
