// A plugin file Node does not import (`.lua`): the kernel asks `resolvePlugin.for(extension)`, which
// the plugin that knows the format taps (the Lua bridge for `.lua`). The kernel knows no format.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { configError } from '../domain/errors.ts';
import type { Kernel } from '../kernel.ts';
import type { Plugin } from '../plugin.ts';
import { missingPluginFile } from './import-plugin.ts';

export async function resolvePluginFile(
  kernel: Kernel,
  spec: { file: string; as: string },
  bundled: readonly Plugin[],
  where: { baseDir: string; configFile: string | null },
): Promise<Plugin> {
  if (!existsSync(spec.file)) throw missingPluginFile(spec, where.baseDir, where.configFile);
  const extension = path.extname(spec.file).toLowerCase();
  const hook = kernel.hooks.resolvePlugin.get(extension);
  const plugin = hook?.isUsed()
    ? await hook.promise({ file: spec.file, as: spec.as }, kernel.callContext())
    : undefined;
  if (plugin) return plugin;
  // `provides: ['plugins:.lua']` is how a bundled plugin says it loads such files: name it.
  const provider = bundled.find((p) => p.provides?.includes(`plugins:${extension}`))?.name;
  const hint = provider
    ? `the plugin ${provider} does, and it is not loaded (plugins drops it with "!${provider}")`
    : 'add a plugin that taps resolvePlugin.for(' + JSON.stringify(extension) + ')';
  throw configError(`plugin ${spec.as}: no loaded plugin loads '${extension}' files; ${hint}`);
}
