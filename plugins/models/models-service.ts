// The `kbctx.models` service (api.ts) over the cache and the fetcher. Loaded on first use (the
// embedder's creation or a `models` command), never at start-up. One fetch per model folder at a time
// in this process; the folder lock (folder-lock.ts) keeps other processes out.
import { progressEveryMs } from '../cli/api.ts';
import { modelNotCached, type FetchOptions, type ModelFiles, type ModelsService } from './api.ts';
import { createDownloadProgress } from './download-progress.ts';
import { isComplete, markUsed } from './model-manifest.ts';
import { DEFAULT_REVISION, hubEndpoint, hubToken, isOffline, modelFolder, resolveCacheDir } from './models-settings.ts';

export function createModelsService(
  settings: () => { env: NodeJS.ProcessEnv; cacheDir: string | null },
): ModelsService {
  const inFlight = new Map<string, Promise<string>>();
  const cacheDir = (): string => resolveCacheDir(settings().env, settings().cacheDir);
  const offline = (): boolean => isOffline(settings().env);
  const cached = (id: string, files: ModelFiles, revision = DEFAULT_REVISION): string | null => {
    const folder = modelFolder(cacheDir(), id, revision);
    if (!isComplete(folder, files.required)) return null;
    markUsed(folder);
    return folder;
  };
  const service: ModelsService = {
    cacheDir,
    offline,
    cached,
    async fetch(id: string, files: ModelFiles, options: FetchOptions = {}): Promise<string> {
      const revision = options.revision ?? DEFAULT_REVISION;
      const present = cached(id, files, revision);
      if (present) return present;
      if (offline()) throw modelNotCached(id, cacheDir());
      const folder = modelFolder(cacheDir(), id, revision);
      const running = inFlight.get(folder);
      if (running) return running;
      const { env } = settings();
      const { fetchModel } = await import('./fetch-model.ts');
      const progress = createDownloadProgress(
        options.interactive ?? process.stderr.isTTY === true,
        options.write ?? ((t) => void process.stderr.write(t)),
        progressEveryMs(env),
      );
      const fetching = fetchModel({
        cacheDir: cacheDir(),
        id,
        revision,
        files,
        endpoint: hubEndpoint(env),
        token: hubToken(env),
        progress,
      }).finally(() => inFlight.delete(folder));
      inFlight.set(folder, fetching);
      const folderPath = await fetching;
      markUsed(folderPath);
      return folderPath;
    },
  };
  return service;
}
