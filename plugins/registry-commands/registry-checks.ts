// `kbctx doctor` lines for the configured registries: installed (and whether a registry.toml or a tree
// scan describes it), or missing with how to install it.
import type { Config, DoctorCheck } from '../../core/api/plugin.ts';
import { loadRegistries } from '../../registry/registries.ts';

export function registryChecks(config: Config): DoctorCheck[] {
  return loadRegistries(config).map((reg) =>
    reg.present
      ? {
          name: reg.name,
          ok: true,
          area: 'registries',
          detail: `${reg.name}: ${reg.path}${reg.manifest ? '' : ' (no registry.toml: the tree is scanned)'}`,
        }
      : {
          name: reg.name,
          ok: true,
          status: 'warn',
          area: 'registries',
          detail: `${reg.name}: not installed at ${reg.path}`,
          fix: reg.url ? `run \`kbctx registry install --name ${reg.name}\`` : 'create the folder or fix its path',
        },
  );
}
