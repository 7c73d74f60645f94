// The index settings bench:vectors (LanceDB mode) builds: the module's plans (vector-index.ts) or, with
// BENCH_PLANS, settings to explore (`kind:key=value,...` joined by `;`), including index kinds the store does
// not offer (IVF_RQ, IVF_FLAT) to compare against. Parses and describes only; it builds nothing.
import type { Index, VectorQuery } from '@lancedb/lancedb';
import type { LanceModule } from '../plugins/store-lancedb/lance-module.ts';
import {
  applyTuning,
  indexConfig,
  planVectorIndex,
  tuneVectorSearch,
  type VectorIndexKind,
  type VectorIndexPlan,
  type VectorSearchTuning,
} from '../plugins/store-lancedb/vector-index.ts';

export type BenchKind = VectorIndexKind | 'ivf_rq' | 'ivf_flat';

export interface BenchPlan {
  readonly kind: BenchKind;
  readonly build: Omit<VectorIndexPlan, 'kind'> & { readonly bits?: number };
  readonly tuning: VectorSearchTuning;
}

const KEYS: Record<string, string> = {
  partitions: 'partitions',
  m: 'm',
  efc: 'efConstruction',
  sample: 'sampleRate',
  iter: 'maxIterations',
  sub: 'subVectors',
  bits: 'bits',
};

/** The module's plan for each kind, or BENCH_PLANS' settings (unset keys: the module's plan, else Lance's). */
export function benchPlans(n: number, dims: number, kinds: readonly VectorIndexKind[], spec?: string): BenchPlan[] {
  if (!spec) return kinds.map((kind) => fromModule(planVectorIndex(n, dims, kind)));
  return spec.split(';').map((one) => {
    const [kind, rest = ''] = one.trim().split(':') as [BenchKind, string?];
    const values = Object.fromEntries(
      rest
        .split(',')
        .filter(Boolean)
        .map((kv) => kv.split('=') as [string, string]),
    );
    const base: BenchPlan =
      kind === 'ivf_pq' || kind === 'ivf_hnsw_sq' || kind === 'ivf_rq'
        ? fromModule(planVectorIndex(n, dims, kind))
        : { kind, build: { partitions: Math.max(1, Math.round(Math.sqrt(n))) }, tuning: { nprobes: 20 } };
    const build: Record<string, number> = { ...base.build };
    for (const [key, field] of Object.entries(KEYS)) if (values[key] !== undefined) build[field] = Number(values[key]);
    const tuning: Record<string, number> = { ...base.tuning };
    for (const key of ['nprobes', 'ef'] as const) if (values[key] !== undefined) tuning[key] = Number(values[key]);
    if (values['refine'] !== undefined) tuning['refineFactor'] = Number(values['refine']);
    return { kind, build: build as BenchPlan['build'], tuning: tuning as unknown as VectorSearchTuning };
  });
}

const fromModule = (plan: VectorIndexPlan): BenchPlan => ({
  kind: plan.kind,
  build: plan,
  tuning: tuneVectorSearch(plan, 10),
});

export function benchIndexConfig(lance: LanceModule, plan: BenchPlan, distance: 'cosine'): Index {
  const { partitions: numPartitions, sampleRate, maxIterations, bits } = plan.build;
  const ivf = {
    distanceType: distance,
    numPartitions,
    ...(sampleRate === undefined ? {} : { sampleRate }),
    ...(maxIterations === undefined ? {} : { maxIterations }),
  };
  if (plan.kind === 'ivf_rq' && bits) return lance.lancedb.Index.ivfRq({ ...ivf, numBits: bits });
  if (plan.kind === 'ivf_flat') return lance.lancedb.Index.ivfFlat(ivf);
  return indexConfig(lance, { ...plan.build, kind: plan.kind }, distance);
}

export function describePlan({ kind, build: b }: BenchPlan): string {
  const parts = [`partitions ${b.partitions}`];
  if (b.subVectors) parts.push(`sub-vectors ${b.subVectors}`);
  if (b.m) parts.push(`m ${b.m}, ef_construction ${b.efConstruction}`);
  if (b.bits) parts.push(`bits ${b.bits}`);
  if (b.sampleRate) parts.push(`sample_rate ${b.sampleRate}`);
  if (b.maxIterations) parts.push(`max_iterations ${b.maxIterations}`);
  return `${kind}: ${parts.join(', ')}`;
}

export const tuned =
  (t: VectorSearchTuning) =>
  (q: VectorQuery): VectorQuery =>
    applyTuning(q, t);

export const describeTuning = (t: VectorSearchTuning): string =>
  `nprobes ${t.nprobes}${t.ef === undefined ? '' : `, ef ${t.ef}`}` +
  `${t.refineFactor === undefined ? '' : `, refine ${t.refineFactor}`}`;

/** The chosen tuning first, then neighbours cheaper and dearer. */
export function alternatives({ kind, build, tuning: chosen }: BenchPlan): VectorSearchTuning[] {
  if (kind !== 'ivf_hnsw_sq') {
    const refineFactor = chosen.refineFactor ?? 10;
    return [
      { nprobes: chosen.nprobes, refineFactor: 1 },
      { nprobes: Math.max(1, Math.ceil(chosen.nprobes / 2)), refineFactor },
      { nprobes: chosen.nprobes * 2, refineFactor },
      { nprobes: chosen.nprobes, refineFactor: Math.ceil(refineFactor / 2) },
      { nprobes: chosen.nprobes, refineFactor: refineFactor * 2 },
    ];
  }
  const ef = chosen.ef ?? 100;
  return [
    { nprobes: chosen.nprobes, ef: 40 },
    { nprobes: chosen.nprobes, ef: ef * 2 },
    { nprobes: chosen.nprobes, ef, refineFactor: 2 },
    ...(build.partitions > 1 ? [{ nprobes: Math.max(1, Math.ceil(chosen.nprobes / 2)), ef }] : []),
  ];
}
