// Which configured plugin files may run, asked before one is imported (ADR 0204). The distribution's
// entry (registry/bundled.ts) hands the registry's pin check to the loader (load-plugins.ts
// setPluginTrust; registry/pinned-plugins.ts: a file inside a configured registry runs only when
// kbctx.lock pins it and its files still match). Without one, `noPinCheck` imports no TypeScript or
// JavaScript file inside a configured registry. The kernel reads no lock file.
import { relativeInside } from '../config/relative-inside.ts';
import { configError } from '../domain/errors.ts';

export interface TrustSettings {
  /** `kbctx.lock` beside the config file; null for the built-in config. */
  lockFile?: string | null;
  /** The configured registries' folders. */
  registries?: readonly { name: string; path: string }[];
  /** The config root: relative `file`s in the lock file resolve against it (the working directory when absent). */
  baseDir?: string;
}

/** A registry plugin's origin as `kbctx plugins` shows it; null for a file outside every registry. */
export type PinnedOrigin = { origin: 'registry'; from: string } | null;

/** Checks one plugin file (`as`: the entry as written); throws config_error for an untrusted or changed file. */
export type PinChecker = (file: string, as: string) => PinnedOrigin;

/** The check without the registry's: a TypeScript or JavaScript file inside a configured registry is refused. */
export const noPinCheck =
  (settings: TrustSettings): PinChecker =>
  (file, as) => {
    const registry = file.endsWith('.lua')
      ? undefined
      : (settings.registries ?? []).find((r) => relativeInside(r.path, file) !== null);
    if (registry)
      throw configError(`plugin ${as}: ${file} is in registry '${registry.name}', and no registry pin check is loaded`);
    return null;
  };
