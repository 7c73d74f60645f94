// The Lua runtime as a kernel service: the host provides it (workers start on first use), the Lua
// bridge plugin uses it for script connectors.
import { createServiceRef } from '../../core/services.ts';
import type { Scripting } from './scripting.ts';

export const scriptingService = createServiceRef<() => Promise<Scripting>>('kbctx.scripting');
