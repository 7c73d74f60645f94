// The index service the composition root provides to plugins (store, retrieval settings, search,
// connector labels): what the built-in tools are made of.
import { createServiceRef } from '../services.ts';
import type { BuiltinDeps } from './tools.ts';

export const indexService = createServiceRef<BuiltinDeps>('kbctx.index');
