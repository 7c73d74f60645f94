// The package's main export (`import { openKbctx, definePlugin } from 'kbctx'`): the library API and
// the plugin contract (core/lib/index.ts), with the bundled plugin set handed to the kernel.
import './bundled.ts';

export * from '../core/lib/index.ts';
