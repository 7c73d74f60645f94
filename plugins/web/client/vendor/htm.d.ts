// Types for the served copy of htm/dist/htm.mjs.
export { default } from 'htm';
