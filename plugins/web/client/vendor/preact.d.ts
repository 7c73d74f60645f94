// Types for the served copy of preact/dist/preact.mjs (see src/web/web-assets.ts).
export * from 'preact';
