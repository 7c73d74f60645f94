// chunker-code's contract entry: the code chunking for other plugins, the library and the code-search
// eval. Importing it loads no grammar; the first `chunkCode` call does.
export { chunkCode, type CodeChunkOptions } from './chunk-code.ts';
export { chunkDocument } from './chunk-document.ts';
export { CODE_EXTENSIONS, languageOf, type CodeLanguage } from './languages.ts';
export { chunkerModeOf } from './chunker-mode.ts';
