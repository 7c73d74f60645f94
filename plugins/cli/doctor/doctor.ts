// `kbctx doctor`: checks of the config, the index and its embeddings, each with what to do about a
// problem. Pure over the Store interface and the config; the CLI adds registries and git.
import { isConfigModule } from '../../../core/api/host.ts';
import type { Config } from '../../../core/api/plugin.ts';
import { OUTSIDE_ROOT_FIX, outsideRootMessage, rootsOutsideProject } from '../../connector-filesystem/api.ts';
import { KbctxError } from '../../../core/api/plugin.ts';
import type { Store } from '../../../core/api/plugin.ts';

export type CheckStatus = 'ok' | 'warn' | 'fail';

export interface DoctorCheck {
  area: string;
  status: CheckStatus;
  detail: string;
  /** What to do about a warn or fail. */
  fix?: string | undefined;
}

export function configChecks(config: Config): DoctorCheck[] {
  const checks: DoctorCheck[] = [
    config.file === null
      ? {
          area: 'config',
          status: 'warn',
          detail: 'no config file found: using the built-in default (Markdown and text under ./)',
          fix: 'create config/kbctx.toml (see config/kbctx.example.toml) or pass -c',
        }
      : {
          area: 'config',
          status: 'ok',
          detail:
            `${config.file} loaded ` + `(${isConfigModule(config.file) ? 'config as code; ' : ''}keys and types valid)`,
        },
  ];
  for (const [part, unset] of Object.entries(config.unsetEnv ?? {})) {
    for (const u of unset) {
      checks.push({
        area: 'config',
        status: 'warn',
        detail: `${u.key} uses \${${u.variable}}, which is not set: ${part} fails when it runs`,
        fix: `export ${u.variable}=… (or edit ${u.key})`,
      });
    }
  }
  for (const outside of rootsOutsideProject(config)) {
    checks.push({
      area: 'connectors',
      status: 'warn',
      detail: outsideRootMessage(outside, config.baseDir),
      fix: OUTSIDE_ROOT_FIX,
    });
  }
  return checks;
}

/**
 * `embedder`: the configured embedder's identity, null when [embedding] is disabled, 'unbuilt' when it is configured
 * but could not be built (its own FAIL says why).
 */
/**
 * `label`: the store's engine label (PostgreSQL: its checks cover the replica's SQLite mirror too; checks are named
 * after the engine, FTS5 only where SQLite keeps the keywords).
 */
/**
 * `engine` is asked for once the store opened: a store that cannot open (missing, unusable) is a FAIL line, not a
 * crash.
 */
export async function indexChecks(
  store: Store,
  embedder: EmbedderIdentity | null | 'unbuilt',
  engine: string | (() => string) = 'SQLite',
): Promise<DoctorCheck[]> {
  let label;
  let report;
  try {
    label = typeof engine === 'string' ? engine : engine();
    report = await store.checkIntegrity?.();
  } catch (error) {
    return [unopened(error)];
  }
  const postgres = label === 'PostgreSQL';
  const fts5 = label === 'SQLite' || postgres;
  const checks: DoctorCheck[] = [];
  const rebuild =
    `restore a backup, or delete the index (${store.path}) and run \`kbctx sync all\` ` +
    `(and \`kbctx embed pending\`)`;
  if (!report) return [{ area: 'index', status: 'warn', detail: 'this store cannot check its integrity' }];
  const readOnly = await store.readOnly?.();
  if (readOnly) {
    checks.push({
      area: 'index',
      status: 'fail',
      detail:
        `the index is read-only: ${readOnly} (search, stats and ` +
        `get work; sync, embed, init and serve cannot write it)`,
      fix: "grant the user running kbctx write access to the index's folder, or point [db] path at a writable copy",
    });
  }
  const keywords = fts5 ? 'keyword index (FTS5)' : 'keyword index';
  checks.push(
    report.sqlite.length === 0
      ? {
          area: 'index',
          status: 'ok',
          detail: postgres
            ? `PostgreSQL and this replica's mirror agree; mirror integrity ok (${store.path})`
            : `${label} integrity ok (${store.path})`,
        }
      : {
          area: 'index',
          status: 'fail',
          detail: `${postgres ? 'PostgreSQL / mirror' : `${label} integrity`}: ${report.sqlite.join('; ')}`,
          fix: postgres
            ? 'stop this replica, delete its mirror file (it is rebuilt from PostgreSQL at start)'
            : rebuild,
        },
    report.fts === null
      ? {
          area: 'index',
          status: 'ok',
          detail:
            readOnly && fts5 ? `${keywords} not checked (FTS5's check needs write access)` : `${keywords} integrity ok`,
        }
      : {
          area: 'index',
          status: 'fail',
          detail: `${keywords}: ${report.fts}`,
          fix: 'run `kbctx sync all --full`, or delete the index and sync again',
        },
    report.ftsRows === report.chunks
      ? { area: 'index', status: 'ok', detail: `${report.chunks} chunks, all in the keyword index` }
      : {
          area: 'index',
          status: 'fail',
          detail: `${report.chunks} chunks but ${report.ftsRows} keyword index rows`,
          fix: 'delete the index and run `kbctx sync all`',
        },
  );
  if (report.documentsWithoutChunks > 0)
    checks.push({
      area: 'index',
      status: 'warn',
      detail: `${report.documentsWithoutChunks} document(s) without chunks (not searchable)`,
      fix: 'run `kbctx sync all --full`',
    });
  for (const v of report.vectorIndexes ?? []) {
    const what = `approximate vector index of ${v.model} (${v.dims} dims, ${v.vectors} vectors)`;
    if (v.state === 'fresh')
      checks.push({ area: 'embeddings', status: 'ok', detail: `${what} in step with the index` });
    else
      checks.push({
        area: 'embeddings',
        status: 'warn',
        detail:
          `${what} ${v.state === 'missing' ? 'not built yet' : 'behind the stored vectors'}: the next semantic ` +
          `search rebuilds it, slowly`,
        fix: 'run `kbctx embed pending` (it brings the index in step)',
      });
  }
  if (report.orphanEmbeddings > 0)
    checks.push({
      area: 'embeddings',
      status: 'warn',
      detail: `${report.orphanEmbeddings} embedding(s) of deleted chunks`,
      fix: 'run `kbctx embed rebuild`',
    });
  checks.push(...(await embeddingChecks(store, embedder)));
  return checks;
}

type EmbedderIdentity = { model: string; dims: number | null };

/**
 * The FAIL line of an index that could not be opened (missing, unusable path, unreachable); anything else is rethrown.
 */
function unopened(error: unknown): DoctorCheck {
  const own = storeError(error);
  if (!own) throw error;
  const missing = own.details?.['index'] === 'missing';
  return {
    area: 'index',
    status: 'fail',
    detail: own.message,
    fix: missing
      ? 'run `kbctx sync all` to create the index, or check [db] path and -c'
      : 'fix [db] (path, url) or what the message names',
  };
}

/** The innermost user-facing KbctxError a store's failure carries (a plugin's tap error wraps the store's own). */
function storeError(error: unknown): KbctxError | null {
  let found: KbctxError | null = null;
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if (e instanceof KbctxError && (e.code === 'unavailable' || e.code === 'config_error')) found = e;
  }
  return found;
}

async function embeddingChecks(store: Store, embedder: EmbedderIdentity | null | 'unbuilt'): Promise<DoctorCheck[]> {
  const spaces = await store.embeddingSpaces();
  if (embedder === 'unbuilt') {
    return spaces.length === 0
      ? []
      : [
          {
            area: 'embeddings',
            status: 'warn',
            detail:
              `${spaces.reduce((n, s) => n + s.count, 0)} stored embedding(s) ` +
              `not checked: the configured embedder could not be built`,
            fix: 'fix the [embedding] section (see the embeddings FAIL above)',
          },
        ];
  }
  if (!embedder) {
    return spaces.length === 0
      ? []
      : [
          {
            area: 'embeddings',
            status: 'warn',
            detail: `${spaces.reduce((n, s) => n + s.count, 0)} stored embedding(s), but [embedding] is disabled`,
            fix: 'configure [embedding] or run `kbctx embed rebuild` after configuring it',
          },
        ];
  }
  const checks: DoctorCheck[] = [];
  const stale = spaces.filter(
    (s) => s.model !== embedder.model || (embedder.dims !== null && s.dims !== embedder.dims),
  );
  if (stale.length > 0) {
    checks.push({
      area: 'embeddings',
      status: 'warn',
      detail:
        `stale embeddings from another model or dims: ` +
        `${stale.map((s) => `${s.model} (${s.dims}): ${s.count}`).join(', ')}`,
      fix: 'run `kbctx embed rebuild`',
    });
  }
  const pending = await store.countPendingEmbeddings(embedder);
  checks.push(
    pending === 0
      ? { area: 'embeddings', status: 'ok', detail: `every chunk has a current ${embedder.model} embedding` }
      : {
          area: 'embeddings',
          status: 'warn',
          detail:
            `${pending} chunk(s) without a current ${embedder.model} ` +
            `embedding (semantic and hybrid search miss them)`,
          fix: 'run `kbctx embed pending`',
        },
  );
  return checks;
}
