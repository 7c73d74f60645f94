// `kbctx doctor`'s plugin lines: loading the configured plugins (a broken one fails naming it), the
// loaded set, and the checks plugins add through the `doctor` hook (a failing tap is a FAIL line).
import { PerPluginCollector } from '../../../core/api/engine.ts';
import type { DoctorCheck as PluginCheck } from '../../../core/api/plugin.ts';
import type { Kernel } from '../../../core/api/host.ts';
import type { DoctorCheck } from './doctor.ts';

export async function pluginChecks(
  kernel: Kernel,
  loadPlugins: () => Promise<unknown>,
): Promise<{ checks: DoctorCheck[]; loadError: Error | null }> {
  try {
    await loadPlugins();
  } catch (error) {
    return {
      checks: [
        {
          area: 'plugins',
          status: 'fail',
          detail: (error as Error).message,
          fix: 'fix or remove the plugin it names (plugins = [...] in the config)',
        },
      ],
      loadError: error as Error,
    };
  }
  const loaded = kernel.plugins();
  const checks: DoctorCheck[] = [
    {
      area: 'plugins',
      status: 'ok',
      detail: `${loaded.length} loaded: ${loaded.map((p) => `${p.name} ${p.version}`).join(', ')}`,
    },
  ];
  const added: { plugin: string; check: PluginCheck }[] = [];
  try {
    await kernel.hooks.doctor.promise(
      new PerPluginCollector((plugin, check) => added.push({ plugin, check })),
      kernel.callContext(),
    );
  } catch (error) {
    checks.push({
      area: 'plugins',
      status: 'fail',
      detail: (error as Error).message,
      fix: 'the plugin it names failed its own check',
    });
  }
  for (const { plugin, check } of added) {
    const status = check.status ?? (check.ok ? 'ok' : 'fail');
    if (check.area)
      checks.push({ area: check.area, status, detail: check.detail, ...(check.fix ? { fix: check.fix } : {}) });
    else
      checks.push({
        area: 'plugins',
        status,
        detail: `${plugin}: ${check.name}: ${check.detail}`,
        ...(check.fix ? { fix: check.fix } : {}),
      });
  }
  return { checks, loadError: null };
}
