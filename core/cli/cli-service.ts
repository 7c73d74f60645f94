// The `kbctx.cli` service: the CLI's context (output, --json, the config) for commands that plugins add
// through the `commands` hook, provided by run-cli before it calls the hook. Type and ref only.
import { createServiceRef } from '../services.ts';
import type { CliContext } from './context.ts';

export const cliService = createServiceRef<CliContext>('kbctx.cli');
