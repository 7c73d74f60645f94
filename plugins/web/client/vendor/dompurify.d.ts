// Types for the served copy of dompurify/dist/purify.es.mjs.
export { default } from 'dompurify';
export * from 'dompurify';
