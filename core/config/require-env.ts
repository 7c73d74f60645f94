// The run-time side of unset `${VAR}`s: a part (connector, tool or agent) whose config uses one fails
// when it runs, naming the variable and the key. Small on purpose: compose imports it eagerly.
import path from 'node:path';
import { configError } from '../domain/errors.ts';
import { unsetMessage } from './expand-env.ts';
import type { Config } from './types.ts';

/** Throws config_error naming the variable and key when a part's config uses an unset variable. */
export function requireEnvFor(config: Config, part: string): void {
  const missing = config.unsetEnv?.[part]?.[0];
  if (missing)
    throw configError(
      unsetMessage(
        config.file === null ? '(built-in config)' : path.relative(config.baseDir, config.file) || config.file,
        missing,
      ),
    );
}
