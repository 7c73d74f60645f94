// Types for the served copy of preact/hooks/dist/hooks.mjs.
export * from 'preact/hooks';
