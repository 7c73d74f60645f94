// The service's body (api.ts): the catalog built once from the registries, the plugins' resources
// collected once, and the SDK server factory over them. Loaded when a transport first asks for it.
import type { McpServerFactory, McpServerOptions } from './api.ts';
import { createMcpServerFactory } from './create-mcp-server.ts';
import { listDocumentPage } from './document-pages.ts';
import { buildMcpCatalog } from './mcp-catalog.ts';
import { collectPluginResources } from './plugin-resources.ts';

export function createServerFactory(options: McpServerOptions): McpServerFactory {
  const { kernel, store, ...deps } = options;
  const catalog = buildMcpCatalog(options.tools, options.agents);
  const documents = store && ((cursor: string | undefined) => listDocumentPage(store, cursor));
  return createMcpServerFactory({ ...deps, catalog, documents, resources: kernel && collectPluginResources(kernel) });
}
