// Types for the served copy of marked/lib/marked.esm.js.
export * from 'marked';
