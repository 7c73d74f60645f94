// The bodies of the built-in tools search, get and sources: the same answers as the dedicated REST
// paths (`POST /tools/search`, `POST /tools/get`, `GET /tools/sources`), over core's use-cases.
import type { BuiltinDeps, KbctxDocument, SearchOutput, SourceInfo } from '../../core/api/plugin.ts';
import { search } from '../../core/api/use-cases.ts';
import { documentLines, getDocument } from './documents.ts';
import { listSources } from './sources.ts';
import { documentToWire, searchResponseToWire, sourcesToWire } from './wire.ts';
import { SEARCH_PARAMS, toSearchParams } from './search-params.ts';
import { rejectUnknownParams } from './unknown-params.ts';
import type { Tool } from '../tool-registry/api.ts';

type Params = Record<string, unknown>;

/**
 * The three bodies with their wire types (what plugins' `ctx.search/get/sources` answer): parameters already validated.
 */
export interface BuiltinBodies {
  search(params: Params): Promise<SearchOutput>;
  get(params: Params): Promise<KbctxDocument>;
  sources(params: Params): Promise<{ sources: SourceInfo[] }>;
}

export function builtinBodies(deps: BuiltinDeps): BuiltinBodies {
  return {
    search: async (params) => {
      const parsed = toSearchParams(params, deps.retrieval); // params are already validated by ToolRegistry.call
      return searchResponseToWire(await search(deps.searchDeps(), parsed), parsed.explain);
    },
    get: async (params) => {
      rejectUnknownParams(params, ['id', 'lines']);
      const doc = await getDocument(deps.store, params['id'] as string);
      if (params['lines'] === undefined) return documentToWire(doc);
      const { document, range } = documentLines(doc, params['lines']);
      return { ...documentToWire(document), line_start: range.start, line_end: range.end };
    },
    sources: async (params) => {
      rejectUnknownParams(params, []);
      return sourcesToWire(await listSources(deps.store, deps.connectorLabels()));
    },
  };
}

/** The three built-in tools. Their results are the same bodies as the dedicated REST paths. */
export function builtinTools(deps: BuiltinDeps): Tool[] {
  const body = builtinBodies(deps);
  return [
    {
      name: 'search',
      description:
        'Search the knowledge base. Returns the best-matching documents with a relevance score in [0, 1] and a ' +
        'snippet; use `get` with a result id to read a whole document.',
      params: SEARCH_PARAMS,
      builtin: true,
      readOnly: true,
      run: body.search,
    },
    {
      name: 'get',
      description:
        'Fetch one document by id (from search results): title, source, URL, update time and the full body text, ' +
        "or only the lines `lines` names (a search result's line_start-line_end).",
      params: [
        {
          name: 'id',
          type: 'string',
          required: true,
          maxLength: 256,
          description: 'Document id from a search result.',
        },
        {
          name: 'lines',
          type: 'string',
          maxLength: 32,
          description:
            "Only these lines of the body, `12-48` (1-based, inclusive) or `12`; e.g. a search result's " +
            'line_start-line_end.',
        },
      ],
      builtin: true,
      readOnly: true,
      run: body.get,
    },
    {
      name: 'sources',
      description: 'List the indexed sources (connectors) with their document and chunk counts.',
      params: [],
      builtin: true,
      readOnly: true,
      run: body.sources,
    },
  ];
}
