// A loaded module's plugin, checked before anything runs: its shape (name, version, kbctx range,
// apply) and that the kernel API version satisfies its range.
import { createRequire } from 'node:module';
import type * as Semver from 'semver';
import { configError } from '../domain/errors.ts';
import { KERNEL_API_VERSION } from '../kernel.ts';
import type { Plugin } from '../plugin.ts';

const NAME = /^[a-z0-9][a-z0-9._:-]{0,63}$/;
const require = createRequire(import.meta.url);

/**
 * Whether the kernel API version satisfies a plugin's range. semver takes ~50 ms to import, so the
 * common range `^<major>.<minor>` of this kernel is answered without it (for every plugin alike).
 */
function satisfiesKernel(range: string): boolean | 'invalid' {
  const [major, minor] = KERNEL_API_VERSION.split('.');
  if (range === `^${major}.${minor}` || range === `^${major}.${minor}.0`) return true;
  const semver = require('semver') as typeof Semver;
  if (semver.validRange(range) === null) return 'invalid';
  return semver.satisfies(KERNEL_API_VERSION, range, { includePrerelease: true });
}

export function checkPlugin(value: unknown, from: string): Plugin {
  const plugin = (
    value && typeof value === 'object' && 'default' in value ? (value as { default: unknown }).default : value
  ) as Partial<Plugin> | undefined;
  if (!plugin || typeof plugin !== 'object')
    throw configError(`plugin ${from}: the module must export a plugin object (export default definePlugin({...}))`);
  const where = `plugin ${typeof plugin.name === 'string' ? `'${plugin.name}'` : from}`;
  if (typeof plugin.name !== 'string' || !NAME.test(plugin.name))
    throw configError(`plugin ${from}: \`name\` must be 1-64 lower-case letters, digits, '.', '_', ':' or '-'`);
  if (typeof plugin.version !== 'string' || plugin.version === '')
    throw configError(`${where} (${from}): \`version\` must be a string`);
  if (typeof plugin.apply !== 'function') throw configError(`${where} (${from}): \`apply\` must be a function`);
  const satisfied = typeof plugin.kbctx === 'string' ? satisfiesKernel(plugin.kbctx) : 'invalid';
  if (satisfied === 'invalid')
    throw configError(`${where} (${from}): \`kbctx\` must be a semver range of the kernel API (e.g. "^0.2")`);
  if (!satisfied) {
    throw configError(
      `${where} (${from}) needs kbctx ${plugin.kbctx}, but this is ` +
        `kernel API ${KERNEL_API_VERSION}; upgrade the plugin or kbctx`,
    );
  }
  if (
    plugin.dependencies !== undefined &&
    (!Array.isArray(plugin.dependencies) || plugin.dependencies.some((d) => typeof d !== 'string'))
  ) {
    throw configError(`${where} (${from}): \`dependencies\` must be a list of plugin names`);
  }
  if (
    plugin.optionsSchema !== undefined &&
    (typeof plugin.optionsSchema !== 'object' || plugin.optionsSchema === null)
  ) {
    throw configError(`${where} (${from}): \`optionsSchema\` must be a JSON Schema object`);
  }
  return plugin as Plugin;
}
