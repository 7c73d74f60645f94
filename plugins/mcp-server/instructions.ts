// The server `instructions` an MCP client shows its model: how to use kbctx's tools well.

export const KBCTX_INSTRUCTIONS = [
  'kbctx is a searchable knowledge base of indexed documents (docs, notes, repositories).',
  'Use `search` with a natural-language query to find relevant documents; results carry an id, title, score in ' +
    '[0, 1], a snippet and a source URL.',
  'Then call `get` with a result id to read the whole document before answering from it; cite its source_url.',
  'Narrow with `source` (a connector label such as "git:docs" or a type such as "git") after `sources` shows ' +
    'what is indexed, or with `filters`: {"path": ["docs/**", "!**/*.test.ts"], "lang": "python", "tags": ["ops"], ' +
    '"meta": {"team": "infra"}}.',
  'Documents are also readable as resources at kbctx://documents/{id}. Prompts are ready-made agent personas.',
].join('\n');
