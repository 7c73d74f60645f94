// The MCP server the transports share (mcp-http, mcp-stdio): the SDK server factory and the catalog
// it advertises. Plugins load it through core/index.ts's `loadMcpServer()`, so only a serving process
// imports the MCP SDK.
export { createMcpServerFactory, type McpServerDeps } from './create-mcp-server.ts';
export { buildMcpCatalog, type McpCatalog } from './mcp-catalog.ts';
export { collectPluginResources, type PluginResources } from './plugin-resources.ts';
