// Which configured plugin files are registry plugins, and whether they may run: a TypeScript or
// JavaScript file inside a configured registry runs only when the lock file pins it and the sha256 of
// its folder's files still matches (a Lua file runs sandboxed and needs no pin). Checked before the file is imported;
// handed to the kernel's loader by registry/bundled.ts (core/load/plugin-trust.ts, ADR 0204).
import path from 'node:path';
import { relativeInside } from '../core/config/relative-inside.ts';
import { configError } from '../core/domain/errors.ts';
import type { PinChecker, PinnedOrigin, TrustSettings } from '../core/load/plugin-trust.ts';
import { LOCK_FILE, readPluginLock, sha256Plugin, type PluginPin } from './plugin-lock.ts';

/**
 * A checker for plugin files; reads the lock file on first use. Throws config_error for an untrusted or changed file.
 */
export function pinChecker(settings: TrustSettings): PinChecker {
  let pins: PluginPin[] | undefined;
  return (file, as) => {
    pins ??= settings.lockFile
      ? [...readPluginLock(settings.lockFile, settings.baseDir ?? process.cwd()).values()]
      : [];
    const pin = pins.find((p) => p.file === file);
    if (pin) return verified(pin, file);
    if (file.endsWith('.lua')) return null;
    const registry = (settings.registries ?? []).find((r) => relativeInside(r.path, file) !== null);
    if (!registry) return null;
    const id = path.relative(registry.path, file).split(path.sep).slice(0, 2).join('/');
    throw configError(
      `plugin ${as}: ${file} is in registry '${registry.name}' but not trusted (not pinned in ` +
        `${settings.lockFile ?? LOCK_FILE}); it would run with full rights: ` +
        `review it, then enable it with \`kbctx registry add ${id} --trust\``,
    );
  };
}

function verified(pin: PluginPin, file: string): PinnedOrigin {
  let actual: string;
  try {
    actual = sha256Plugin(file);
  } catch (error) {
    throw configError(
      `plugin '${pin.name}' (registry '${pin.registry}', ${pin.path}): cannot read ${file} ` +
        `(${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      error,
    );
  }
  const at = pin.commit ? ` at commit ${pin.commit.slice(0, 7)}` : '';
  if (actual !== pin.sha256) {
    throw configError(
      `plugin '${pin.name}' (registry '${pin.registry}', ${pin.path}) changed since it was trusted${at}: sha256 ` +
        `${actual.slice(0, 12)}… is not the pinned ${pin.sha256.slice(0, 12)}…; ` +
        `review the change, then trust it again with \`kbctx registry add plugins/${pin.name} --trust\` (or ` +
        `remove it from plugins)`,
    );
  }
  return { origin: 'registry', from: `${pin.registry}:${pin.path}${pin.commit ? `@${pin.commit.slice(0, 7)}` : ''}` };
}
