// `kbctx doctor` lines: the model cache (where, how many models, how large) and whether the model the
// [embedding] section names is in it (a warning naming `kbctx models pull` when not: the first embed
// would fetch it; offline it would fail).
import type { Config, DoctorCheck } from '../../core/api/plugin.ts';
import { formatBytes } from '../cli/api.ts';
import { modelsConfigOf } from './api.ts';
import { configuredHubModel } from './configured-model.ts';
import { isComplete, listCached } from './model-manifest.ts';
import { isOffline, modelFolder, resolveCacheDir } from './models-settings.ts';

const check = (status: 'ok' | 'warn' | 'fail', detail: string, fix?: string): DoctorCheck => ({
  name: 'models',
  ok: status !== 'fail',
  status,
  area: 'models',
  detail,
  fix,
});

export function modelChecks(config: Config, env: NodeJS.ProcessEnv): DoctorCheck[] {
  const cacheDir = resolveCacheDir(env, modelsConfigOf(config).cacheDir);
  const cached = listCached(cacheDir);
  const bytes = cached.reduce((sum, m) => sum + m.manifest.files.reduce((s, f) => s + f.size, 0), 0);
  const checks: DoctorCheck[] = [
    check(
      'ok',
      `cache ${cacheDir}: ${cached.length} model(s), ` +
        `${formatBytes(bytes)}${isOffline(env) ? ' (offline: no downloads)' : ''}`,
    ),
  ];
  const wanted = configuredHubModel(config.embedding);
  if (wanted) {
    let present: boolean;
    try {
      present = isComplete(modelFolder(cacheDir, wanted.id), wanted.files.required);
    } catch (error) {
      checks.push(check('fail', (error as Error).message, 'fix [embedding] model'));
      return checks;
    }
    checks.push(
      present
        ? check('ok', `${wanted.id}: in the cache`)
        : check(
            isOffline(env) ? 'fail' : 'warn',
            `${wanted.id}: not in the cache (the first embed fetches ` +
              `it${isOffline(env) ? ', which offline fails' : ''})`,
            `run \`kbctx models pull ${wanted.id}\``,
          ),
    );
  }
  return checks;
}
