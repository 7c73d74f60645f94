// The package's main export (`import { openKbctx, definePlugin } from 'kbctx'`): the library API and
// the plugin contract (core/lib/index.ts), with the bundled plugin set handed to the kernel.
import './bundled.ts';

export * from '../core/lib/index.ts';
// transport-http's contract entry (its `httpRoutes` hook and the HTTP surface types), which core no longer declares.
export * from '../plugins/transport-http/api.ts';
// The cli plugin's contract entry (the `kbctx.cli` service, `CliContext`, the table and progress helpers for plugin commands).
export * from '../plugins/cli/api.ts';
