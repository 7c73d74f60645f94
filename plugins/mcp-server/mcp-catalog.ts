// What the MCP surface advertises, computed once from the tool and agent registries: tool
// definitions (input JSON Schema, outputSchema, annotations), prompts, the document resource
// template. Every per-request server instance shares these objects; nothing is rebuilt per request.
import type { Tool } from '@modelcontextprotocol/server';
import { BUILTIN_OUTPUT_SCHEMAS } from './output-schemas.ts';
import type { AgentRegistry } from '../agents-inline/api.ts';
import type { ToolRegistry } from '../tool-registry/api.ts';

/** Every document resource is served as its extracted text, so one type fits list, template and read alike. */
export const DOCUMENT_MIME_TYPE = 'text/plain';

export const DOCUMENT_URI_PREFIX = 'kbctx://documents/';

export type McpToolDef = Tool;

export interface McpPromptDef {
  name: string;
  description: string;
  arguments: { name: string; description: string; required: boolean }[];
}

export interface McpCatalog {
  tools: McpToolDef[];
  /** Tool name → its outputSchema (for the SDK's result projection). */
  outputSchemas: ReadonlyMap<string, Record<string, unknown>>;
  prompts: McpPromptDef[];
  resourceTemplates: { uriTemplate: string; name: string; title: string; description: string; mimeType: string }[];
}

export function buildMcpCatalog(tools: ToolRegistry, agents: AgentRegistry): McpCatalog {
  const outputSchemas = new Map<string, Record<string, unknown>>();
  const toolDefs = tools.list().map((t): McpToolDef => {
    const outputSchema = t.builtin ? BUILTIN_OUTPUT_SCHEMAS[t.name] : undefined;
    if (outputSchema) outputSchemas.set(t.name, outputSchema);
    return {
      name: t.name,
      description: t.description,
      inputSchema: t.parameters as unknown as Tool['inputSchema'],
      ...(outputSchema ? { outputSchema: outputSchema as Tool['outputSchema'] } : {}),
      annotations: {
        title: t.name,
        readOnlyHint: t.readOnly,
        destructiveHint: !t.readOnly,
        idempotentHint: t.readOnly,
        // Built-ins only read the local index; script tools may call out to anything.
        openWorldHint: !t.builtin,
      },
    };
  });
  return {
    tools: toolDefs,
    outputSchemas,
    prompts: agents.list().map((a) => ({
      name: a.name,
      description: a.description,
      arguments: a.arguments.map((x) => ({ name: x.name, description: x.description, required: x.required })),
    })),
    resourceTemplates: [
      {
        uriTemplate: `${DOCUMENT_URI_PREFIX}{id}`,
        name: 'document',
        title: 'Indexed document',
        description: 'A document from the knowledge base by id (ids come from search results): its full body text.',
        mimeType: DOCUMENT_MIME_TYPE,
      },
    ],
  };
}
