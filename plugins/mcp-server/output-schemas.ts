// JSON Schemas of the built-in tools' results (MCP `outputSchema`), matching tools-builtin's wire.ts. Tools
// without an entry (script tools) get no outputSchema; their object results still become structuredContent.

const str = { type: 'string' } as const;
const strOrNull = { type: ['string', 'null'] } as const;
const line = { type: 'integer', minimum: 1 } as const;
const lineOrNull = { type: ['integer', 'null'], minimum: 1 } as const;

const searchResult = {
  type: 'object',
  properties: {
    id: str,
    source: str,
    source_id: str,
    title: str,
    score: { type: 'number', minimum: 0, maximum: 1 },
    snippet: str,
    source_url: strOrNull,
    updated_at: str,
    line_start: lineOrNull,
    line_end: lineOrNull,
    symbol: strOrNull,
    lang: strOrNull,
  },
  required: ['id', 'source', 'source_id', 'title', 'score', 'snippet', 'source_url'],
};

export const BUILTIN_OUTPUT_SCHEMAS: Readonly<Record<string, Record<string, unknown>>> = {
  search: { type: 'object', properties: { results: { type: 'array', items: searchResult } }, required: ['results'] },
  get: {
    type: 'object',
    properties: {
      id: str,
      source: str,
      source_id: str,
      source_url: strOrNull,
      title: str,
      body: str,
      updated_at: str,
      line_start: line,
      line_end: line,
    },
    required: ['id', 'source', 'source_id', 'title', 'body', 'updated_at'],
  },
  sources: {
    type: 'object',
    properties: {
      sources: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            source: str,
            document_count: { type: 'integer' },
            chunk_count: { type: 'integer' },
            status: str,
          },
          required: ['source', 'document_count', 'chunk_count'],
        },
      },
    },
    required: ['sources'],
  },
};
