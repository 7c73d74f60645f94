// embedder-openai's contract entry (ADR 0160): `postJson`, the JSON POST with time-outs, retries and
// Retry-After that the HTTP embedders (OpenAI-compatible, Ollama) and the HTTP reranker share.
export { postJson } from './post-json.ts';
