// The package's main export (`import { openLore } from 'lore-context'`): the library API and the
// types extension modules are written against. A thin surface: nothing here but re-exports.
export { openLore, type Lore, type OpenLoreOptions, type SearchInput } from './open-lore.ts';
export type { LoreDocument, SearchHit, SearchOutput, SourceInfo, SyncReport } from './wire-types.ts';
export { createHttpHandler, type HttpHandlerOptions, type LoreHttpHandler } from './create-http-handler.ts';
export { LoreError } from '../core/errors.ts';
export type { ErrorCode } from '../core/error-table.ts';
export { VERSION } from '../version.ts';
export type {
  ExtensionAgent,
  ExtensionAgentContext,
  ExtensionCallContext,
  ExtensionConnector,
  ExtensionItem,
  ExtensionJsonSchema,
  ExtensionParameter,
  ExtensionPrompt,
  ExtensionTool,
  LoreExtension,
  LoreExtensionHost,
} from '../extensions/extension-api.ts';
