// The fetcher's settings from the environment and [models]: the cache root, offline mode, the hub
// endpoint and token, and where one model lives in the cache. Pure apart from reading `env`.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { configError } from '../../core/api/plugin.ts';

export const DEFAULT_ENDPOINT = 'https://huggingface.co';
export const DEFAULT_REVISION = 'main';
const ID = /^[A-Za-z0-9][\w.-]*\/[\w.-]+$/;

type Env = Readonly<Record<string, string | undefined>>;

export function resolveCacheDir(env: Env, configured: string | null): string {
  if (env['KBCTX_MODELS_DIR']) return env['KBCTX_MODELS_DIR'];
  if (configured) return configured;
  const xdg = env['XDG_CACHE_HOME'];
  return join(xdg ? xdg : join(homedir(), '.cache'), 'kbctx', 'models');
}

const truthy = (v: string | undefined): boolean => v !== undefined && /^(1|true|yes|on)$/i.test(v.trim());

export const isOffline = (env: Env): boolean => truthy(env['KBCTX_OFFLINE']) || truthy(env['HF_HUB_OFFLINE']);

export const hubEndpoint = (env: Env): string => (env['HF_ENDPOINT'] || DEFAULT_ENDPOINT).replace(/\/+$/, '');

export const hubToken = (env: Env): string | null => env['HF_TOKEN'] || null;

/** Throws a config error unless `id` is `owner/name` (letters, digits, `_.-`; no `..`). */
export function checkModelId(id: string): void {
  if (!ID.test(id) || id.split('/').some((part) => part === '.' || part === '..')) {
    throw configError(`model "${id}" is not a Hugging Face hub id (owner/name, e.g. Xenova/bge-small-en-v1.5)`);
  }
  if (id.length > 200) throw configError(`model "${id.slice(0, 40)}…" is too long for a hub id`);
}

/** `<cache>/<owner>/<name>` for `main`, `<cache>/<owner>/<name>@<revision>` otherwise. */
export function modelFolder(cacheDir: string, id: string, revision: string = DEFAULT_REVISION): string {
  checkModelId(id);
  if (!/^[\w.-]+$/.test(revision) || revision.includes('..'))
    throw configError(`model revision "${revision}" must be a branch, tag or commit (letters, digits, _.-)`);
  const [owner, name] = id.split('/') as [string, string];
  return join(cacheDir, owner, revision === DEFAULT_REVISION ? name : `${name}@${revision}`);
}

/** `{endpoint}/{repo}/resolve/{revision}/{file}`, each path part escaped. */
export const fileUrl = (endpoint: string, id: string, revision: string, file: string): string =>
  `${endpoint}/${id}/resolve/${encodeURIComponent(revision)}/${file.split('/').map(encodeURIComponent).join('/')}`;
