// The package's main export (`import { openKbctx } from 'kbctx'`): the library API (the types extension modules are
// written against are the extensions plugin's, re-exported by registry/index.ts). A thin surface: nothing here but
// re-exports.
export { openKbctx, type Kbctx, type OpenKbctxOptions, type SearchInput } from './open-kbctx.ts';
export type { KbctxDocument, SearchHit, SearchOutput, SourceInfo } from '../../core/domain/wire-types.ts';
// A sync report on the wire: the cli plugin's, which `kbctx sync --json` prints (ADR 0251).
export type { SyncReportWire as SyncReport } from '../../plugins/cli/sync-wire.ts';
export { createHttpHandler, type HttpHandlerOptions, type KbctxHttpHandler } from './create-http-handler.ts';
export { KbctxError, type ErrorCode } from '../../core/domain/errors.ts';
export { VERSION } from '../../core/config/version.ts';
// The plugin contract (docs/plugins.md).
export * from '../../core/index.ts';
