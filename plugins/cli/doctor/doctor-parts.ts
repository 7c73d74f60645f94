// `kbctx doctor`'s checks of the configured parts that could look fine on paper and still not work: each connector's
// source (its cheap probe, its warnings, how its last sync ended), the embedding provider (one real request), and the
// extension modules, script tools and agents that failed to load. Over interfaces only.
import { execFile } from 'node:child_process';
import type { Connector } from '../../../core/api/plugin.ts';
import type { Embedder } from '../../../core/api/plugin.ts';
import type { DoctorCheck } from './doctor.ts';
import { describeStatus, type SourceRow } from '../../tools-builtin/api.ts';

export interface Failure {
  label: string;
  message: string;
}

export async function connectorChecks(connectors: readonly Connector[]): Promise<DoctorCheck[]> {
  const checks = await Promise.all(
    connectors.map(async (c): Promise<DoctorCheck[]> => {
      if (!c.probe)
        return [
          {
            area: 'connectors',
            status: 'ok',
            detail: `${c.label}: configured (no cheap check for this type; \`kbctx sync ${c.label}\` tries it)`,
          },
        ];
      let probed: DoctorCheck;
      try {
        probed = { area: 'connectors', status: 'ok', detail: `${c.label}: ${await c.probe()}` };
      } catch (error) {
        return [
          {
            area: 'connectors',
            status: 'fail',
            detail: messageOf(error, c.label),
            fix: `fix the connector's section, then \`kbctx sync ${c.label}\``,
          },
        ];
      }
      const warnings = (await c.doctorWarnings?.().catch(() => [])) ?? [];
      return [
        probed,
        ...warnings.map(
          (w): DoctorCheck => ({
            area: 'connectors',
            status: 'warn',
            detail: messageOf(w.detail, c.label),
            fix: w.fix,
          }),
        ),
      ];
    }),
  );
  return checks.flat();
}

/** A warning per configured connector whose last sync run failed or could not read some items. */
export function lastRunChecks(rows: readonly SourceRow[]): DoctorCheck[] {
  return rows
    .filter((r) => r.configured && r.lastRun && (r.status === 'failed' || r.status === 'errors'))
    .map((r) => ({
      area: 'connectors',
      status: 'warn',
      detail:
        `${r.source}: last sync (${r.lastRun?.endedAt}) ` +
        `${r.status === 'failed' ? describeStatus(r) : `could not read ${r.lastRun?.errors} item(s)`}`,
      fix: `\`kbctx sync ${r.source}\` names each problem; fix it, then sync again`,
    }));
}

/** Embeds one short text: the provider answers, with vectors of the configured length. */
export async function embedderCheck(embedder: Embedder): Promise<DoctorCheck> {
  try {
    const [vector] = await embedder.embed(['kbctx doctor']);
    return { area: 'embeddings', status: 'ok', detail: `${embedder.model}: answered (${vector?.length ?? 0} dims)` };
  } catch (error) {
    return {
      area: 'embeddings',
      status: 'fail',
      detail: messageOf(error, embedder.model),
      fix: 'start the provider or fix [embedding] (url, model, dims, api_key_env)',
    };
  }
}

export function loadChecks(extensionFailures: readonly Failure[], scriptFailures: readonly Failure[]): DoctorCheck[] {
  return [
    ...extensionFailures.map(
      (f): DoctorCheck => ({
        area: 'extensions',
        status: 'fail',
        detail: `${f.label}: ${f.message}`,
        fix: 'fix the module or its entry in [extensions] modules',
      }),
    ),
    ...scriptFailures.map(
      (f): DoctorCheck => ({
        area: 'scripts',
        status: 'fail',
        detail: messageOf(f, f.label),
        fix: `fix the script or its path (\`kbctx ${f.label.split(':')[0] ?? 'tool'} test\` shows the error)`,
      }),
    ),
  ];
}

/** The error's message, prefixed with the part's label unless it already starts with it. */
function messageOf(error: unknown, label: string): string {
  const message = typeof error === 'string' ? error : ((error as Error)?.message ?? String(error));
  return message.startsWith(label) ? message : `${label}: ${message}`;
}

/** git on PATH: a failure when git connectors or remote registries need it, else a warning. */
export async function gitCheck(needed: boolean): Promise<DoctorCheck> {
  const version = await new Promise<string | null>((resolve) => {
    execFile('git', ['--version'], { timeout: 10_000 }, (error, stdout) => resolve(error ? null : stdout.trim()));
  });
  if (version) return { area: 'git', status: 'ok', detail: version };
  return {
    area: 'git',
    status: needed ? 'fail' : 'warn',
    detail: 'git is not installed or not on PATH',
    fix: 'install git (git connectors and registries need it)',
  };
}
