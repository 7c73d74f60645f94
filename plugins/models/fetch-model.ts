// Fetches one model into the cache:
//  1. lock the model (another process fetching it is waited for), then look again: it may be whole now;
//  2. ask the hub about each file (HEAD): a required file it lacks is a config error;
//  3. download what is missing or differs in size (download-file.ts: resumed, verified, renamed);
//  4. write the manifest last, so only a whole model counts as present.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { configError } from '../../core/api/plugin.ts';
import type { ModelFiles } from './api.ts';
import type { DownloadProgress } from './download-progress.ts';
import { downloadFile } from './download-file.ts';
import { lockFolder } from './folder-lock.ts';
import { headFile, type HubFile } from './hub-file.ts';
import { isComplete, readManifest, writeManifest, type ManifestFile } from './model-manifest.ts';
import { fileUrl, modelFolder } from './models-settings.ts';

export interface FetchModelRequest {
  readonly cacheDir: string;
  readonly id: string;
  readonly revision: string;
  readonly files: ModelFiles;
  readonly endpoint: string;
  readonly token: string | null;
  readonly progress: DownloadProgress;
}

export async function fetchModel(r: FetchModelRequest): Promise<string> {
  const folder = modelFolder(r.cacheDir, r.id, r.revision);
  mkdirSync(dirname(folder), { recursive: true });
  const lock = await lockFolder(`${folder}.lock`, (pid) =>
    r.progress.note(`waiting for another kbctx process${pid === null ? '' : ` (pid ${pid})`} fetching ${r.id}`),
  );
  try {
    if (isComplete(folder, r.files.required)) return folder;
    const url = (file: string): string => fileUrl(r.endpoint, r.id, r.revision, file);
    const wanted: [string, HubFile][] = [];
    for (const file of [...r.files.required, ...(r.files.optional ?? [])]) {
      const announced = await headFile(url(file), r.token);
      if (announced) wanted.push([file, announced]);
      else if (r.files.required.includes(file)) {
        throw configError(
          `the model hub has no ${file} for "${r.id}" (${url(file)} is 404): check the hub id, and that the repo ` +
            `has ONNX weights in onnx/ (docs/models.md)`,
        );
      }
    }
    const missing = wanted.filter(
      ([file, a]) =>
        !existsSync(join(folder, file)) || (a.size !== null && statSync(join(folder, file)).size !== a.size),
    );
    r.progress.start(
      r.id,
      missing.reduce((sum, [, a]) => sum + (a.size ?? 0), 0),
      missing.length,
    );
    const fetched = new Map<string, ManifestFile>();
    for (const [file, expected] of missing) {
      const got = await downloadFile({
        url: url(file),
        token: r.token,
        dest: join(folder, file),
        expected,
        onBytes: (done) => r.progress.file(file, done),
      });
      fetched.set(file, { path: file, ...got });
    }
    const earlier = readManifest(folder)?.files ?? [];
    const files = new Map<string, ManifestFile>(earlier.map((f) => [f.path, f]));
    for (const [file, a] of wanted)
      files.set(
        file,
        fetched.get(file) ??
          files.get(file) ?? { path: file, size: statSync(join(folder, file)).size, sha256: a.sha256 },
      );
    writeManifest(folder, {
      id: r.id,
      revision: r.revision,
      files: [...files.values()],
      fetched: new Date().toISOString(),
    });
    r.progress.done(`${r.id} ready in ${folder}`);
    return folder;
  } finally {
    r.progress.stop();
    lock.release();
  }
}
