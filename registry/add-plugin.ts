// `registry add plugins/<name>`: enables a registry plugin by adding its entry file to the config's
// `plugins` list. A TypeScript/JavaScript plugin runs with full rights, so it is added only with
// `trust` and pinned in kbctx.lock (registry commit + sha256 of the plugin's files); adding it again
// with `trust` re-pins a changed file. A Lua plugin runs sandboxed: no trust step, no pin.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { KERNEL_API_VERSION } from '../core/kernel.ts';
import { formatPluginLock, LOCK_FILE, readPluginLock, sha256Plugin } from './plugin-lock.ts';
import { toConfigPath } from './config-path.ts';
import { defaultConfigToml } from '../core/config/package-root.ts';
import { configRoot } from '../core/config/find-config.ts';
import { configError, KbctxError } from '../core/domain/errors.ts';
import { appendPluginEntry } from './config-edit.ts';
import { headCommit } from './git.ts';
import { isEnabled, loadRegistries, type ResolvedExtension } from './registries.ts';
import type { RegistryContext } from './registry-service.ts';

export interface AddPluginResult {
  written: boolean;
  file: string;
  block: string;
  reason?: string;
  /** Set when a TypeScript/JavaScript plugin was pinned: the lock file and what it records. */
  pinned?: { lockFile: string; commit: string | null; sha256: string };
}

export async function addPlugin(
  ctx: RegistryContext,
  ext: ResolvedExtension,
  options: { trust?: boolean },
): Promise<AddPluginResult> {
  const manifest = ext.entry.plugin!;
  if (
    !semver.validRange(manifest.kbctx) ||
    !semver.satisfies(KERNEL_API_VERSION, manifest.kbctx, { includePrerelease: true })
  ) {
    throw configError(
      `${ext.id} needs kbctx ${manifest.kbctx}, but this is kernel ` +
        `API ${KERNEL_API_VERSION}; update the registry or kbctx`,
    );
  }
  if (!existsSync(ext.scriptPath)) throw configError(`${ext.id}: its entry file ${ext.scriptPath} does not exist`);
  const enabled = isEnabled(ctx.config, ext);
  const lockFile = path.join(path.dirname(ctx.configFile), LOCK_FILE);
  // Written relative to the project (or `~/…`), as the config resolves them: the project can be committed and moved.
  const project = configRoot(ctx.configFile);
  const entry = toConfigPath(ext.scriptPath, project);
  if (manifest.runtime === 'lua') {
    if (enabled)
      return {
        written: false,
        file: ctx.configFile,
        block: '',
        reason: `${ext.id} is already in the plugins list of ${ctx.configFile}`,
      };
    return { written: true, file: ctx.configFile, block: appendPluginEntry(ctx.configFile, entry, initialText(ctx)) };
  }
  if (!options.trust) {
    throw new KbctxError(
      'usage',
      `${ext.id} is a ${path.extname(manifest.entry) === '.ts' ? 'TypeScript' : 'JavaScript'} plugin: it runs ` +
        `with full rights (files, network, environment, ` +
        `every document in the index), unlike sandboxed Lua. Review ${path.dirname(ext.scriptPath)}, then run ` +
        `\`kbctx registry add ${ext.id} --trust\` ` +
        `to add it and pin its commit in ${lockFile}`,
    );
  }
  const pins = readPluginLock(lockFile, project);
  const sha256 = sha256Plugin(ext.scriptPath);
  const registry = loadRegistries(ctx.config).find((r) => r.name === ext.registry)!;
  const pin = {
    name: manifest.name,
    registry: ext.registry,
    path: ext.entry.path,
    file: ext.scriptPath,
    commit: registry.isGit ? await headCommit(registry.path) : null,
    sha256,
  };
  const previous = pins.get(manifest.name);
  if (enabled && previous?.file === pin.file && previous.sha256 === sha256) {
    return {
      written: false,
      file: ctx.configFile,
      block: '',
      reason: `${ext.id} is already in the plugins list of ${ctx.configFile} and pinned in ${lockFile}`,
    };
  }
  pins.set(manifest.name, pin);
  mkdirSync(path.dirname(lockFile), { recursive: true });
  // the pin first: an entry without one is refused at load
  writeFileSync(lockFile, formatPluginLock(pins.values(), project));
  const block = enabled ? '' : appendPluginEntry(ctx.configFile, entry, initialText(ctx));
  return { written: !enabled, file: ctx.configFile, block, pinned: { lockFile, commit: pin.commit, sha256 } };
}

const initialText = (ctx: RegistryContext): string => (ctx.config.file ? '' : defaultConfigToml().trimStart());
