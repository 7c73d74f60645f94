// The library's `openKbctx`: config (a TOML file path, a TOML-shaped object, or the usual lookup) →
// a kbctx over the same composition root and use-cases as the CLI. Answers are the REST bodies
// (the built-in tools' results), so a library caller and an HTTP client see the same objects.
import { importConfig, loadConfig, parseConfigTree } from '../../core/config/load-config.ts';
import { openKbctx as compose, type Kbctx as ComposedKbctx } from '../../core/app/compose.ts';
import { selectConnectors } from '../../core/app/select-connectors.ts';
import { syncConnectors } from '../../core/app/sync.ts';
import { toolsOf } from '../../plugins/tool-registry/api.ts';
import { syncReportToWire, type SyncReportWire as SyncReport } from '../../plugins/cli/sync-wire.ts';
import type { KbctxDocument, SearchOutput, SourceInfo } from '../../core/domain/wire-types.ts';

export interface OpenKbctxOptions {
  /**
   * A TOML file or a config module (`kbctx.config.mjs`), relative to `cwd`, or the config as an object with
   * the TOML keys (`{ db: { path } }`, whose `plugins` may hold plugin objects). Default: the CLI's lookup
   * ($KBCTX_CONFIG, ./config/kbctx.toml, ./config/kbctx.config.mjs, …), then the built-in config.
   */
  config?: string | Record<string, unknown> | undefined;
  /** Folder relative paths resolve against; default process.cwd(). */
  cwd?: string | undefined;
  /** Environment for `${VAR}` expansion and API keys; default process.env. */
  env?: NodeJS.ProcessEnv | undefined;
  /** Called for each extension module, script tool or agent that failed to load (default: console.warn). */
  onWarning?: ((message: string) => void) | undefined;
}

export interface SearchInput {
  query: string;
  mode?: 'keyword' | 'semantic' | 'hybrid' | undefined;
  limit?: number | undefined;
  /** A connector label (`git:docs`) or type (`git`). */
  source?: string | undefined;
  /** Adds per-signal scores to each hit and the query analysis to the answer. */
  explain?: boolean | undefined;
}

export interface Kbctx {
  /** Validated like `POST /tools/search` (bad_request naming the parameter). */
  search(input: SearchInput): Promise<SearchOutput>;
  /** One whole document (the body of `POST /tools/get`); rejects with a KbctxError `not_found`. */
  get(id: string): Promise<KbctxDocument>;
  /** The body of `GET /tools/sources`. */
  sources(): Promise<{ sources: SourceInfo[] }>;
  /** Syncs `all`, a connector type or `<type>:<name>`; one report per connector, as `kbctx sync --json` prints them. */
  sync(target?: string, options?: { full?: boolean }): Promise<{ connectors: SyncReport[] }>;
  /** Stops script workers and closes the index. The kbctx is unusable afterwards. */
  close(): Promise<void>;
}

const composed = new WeakMap<Kbctx, ComposedKbctx>();

/** The composition behind a library kbctx (for createHttpHandler). */
export function composedOf(kbctx: Kbctx): ComposedKbctx {
  const inner = composed.get(kbctx);
  if (!inner) throw new TypeError('not a kbctx returned by openKbctx()');
  return inner;
}

export async function openKbctx(options: OpenKbctxOptions = {}): Promise<Kbctx> {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const config =
    typeof options.config === 'object' && options.config !== null
      ? parseConfigTree(options.config, { file: null, cwd, env })
      : loadConfig({
          configPath: options.config,
          cwd,
          env,
          module: await importConfig({ configPath: options.config, cwd, env }),
        });
  const inner = compose(config, env);
  const warn = options.onWarning ?? ((message: string) => console.warn(message));
  try {
    for (const f of await inner.ready()) warn(`${f.label} not loaded: ${f.message}`);
  } catch (error) {
    await inner.close();
    throw error;
  }
  const tools = toolsOf(inner.kernel);
  const kbctx: Kbctx = {
    search: async (input) => (await tools.call('search', input)) as SearchOutput,
    get: async (id) => (await tools.call('get', { id })) as KbctxDocument,
    sources: async () => (await tools.call('sources', {})) as { sources: SourceInfo[] },
    async sync(target = 'all', { full = false } = {}) {
      const connectors = await Promise.all(
        selectConnectors(config, target).map((ref) => inner.index.createConnector(ref)),
      );
      const reports = await syncConnectors(inner.index.syncDeps(), connectors, { full });
      return { connectors: reports.map(syncReportToWire) };
    },
    close: () => inner.close(),
  };
  composed.set(kbctx, inner);
  return kbctx;
}
