// The kernel's hooks, declared once in one frozen object (webpack's Compiler.hooks). The kernel only
// calls them; plugins tap them. Keyed factories are HookMaps of bail hooks: the first tap that
// returns a value provides the thing; none → the caller reports "no plugin for …".
import {
  AsyncParallelHook,
  AsyncSeriesBailHook,
  AsyncSeriesHook,
  AsyncSeriesWaterfallHook,
  HookMap,
  SyncBailHook,
  SyncHook,
} from 'tapable';
import type {
  ChunkPiece,
  ChunkRequest,
  CliProgram,
  Collector,
  DoctorCheck,
  DocumentDraft,
  ExtractedText,
  ExtractRequest,
  Hit,
  PluginFileSpec,
  RankControl,
  RunningTransport,
  SearchRequest,
  TransportOptions,
} from './hook-types.ts';
import type { ConnectorImpl, ConnectorInstance } from './connectors/connector.ts';
import type { Embedder, EmbedderOptions } from './embed/embedder.ts';
import type { OpenedStore, StoreOptions } from './store/store-factory.ts';
import type { SearchRecord } from './domain/search-record.ts';
import type { PluginAgentDef, PluginResourceDef, PluginToolDef, ToolCall } from './tools/part-defs.ts';
import type { PluginContext } from './plugin-context.ts';
import type { Plugin } from './plugin.ts';

/** A `commands` tap's extra option: the top-level commands it adds, so the CLI calls it only for them. */
export interface CommandsTapOptions {
  commands?: readonly string[];
}

/** Each tap receives its own plugin's context (the kernel passes a CallContext, swapped per tap). */
type CallContext = PluginContext;
/**
 * Extra tap options (the attribution honours them on every hook; typed where a plugin needs them): `timeout` (s)
 * replaces the hook's time-out for that tap.
 */
type TapExtras = { timeout?: number };
/**
 * A `rank` tap's extra option (ADR 0197): `cacheKey(request)` is everything besides the search parameters that shapes
 * what the tap returns for this request (its settings, its model, a per-call switch). When every `rank` tap has one,
 * the ranked page is cached with the search cache under the parameters plus these parts; a tap without one keeps
 * ranked pages out of the cache (each search runs the taps). A tap vetoes one call's entry with `control.uncacheable`.
 */
export interface RankTapOptions extends TapExtras {
  cacheKey?: (request: SearchRequest) => string;
}

export function createHooks() {
  return Object.freeze({
    // lifecycle
    boot: new AsyncSeriesHook<[CallContext], TapExtras>(['ctx'], 'boot'),
    ready: new AsyncParallelHook<[CallContext]>(['ctx'], 'ready'),
    shutdown: new AsyncSeriesHook<[string]>(['reason'], 'shutdown'),
    // loading: a plugin file the kernel cannot import (key: its extension, '.lua') → a plugin object
    resolvePlugin: new HookMap(
      (_extension: string) =>
        new AsyncSeriesBailHook<[PluginFileSpec, CallContext], Plugin | undefined>(['spec', 'ctx']),
      'resolvePlugin',
    ),
    // keyed factories
    // synchronous: openKbctx opens the index synchronously (a network store forwards to one being opened)
    createStore: new HookMap(
      (_engine: string) => new SyncBailHook<[StoreOptions, CallContext], OpenedStore | undefined>(['options', 'ctx']),
      'createStore',
    ),
    createConnector: new HookMap(
      (_type: string) =>
        new AsyncSeriesBailHook<[ConnectorInstance, CallContext], ConnectorImpl | undefined>(['instance', 'ctx']),
      'createConnector',
    ),
    // sync: the embedder is built lazily where a synchronous caller first needs it (no I/O in the tap)
    createEmbedder: new HookMap(
      (_provider: string) => new SyncBailHook<[EmbedderOptions, CallContext], Embedder | undefined>(['options', 'ctx']),
      'createEmbedder',
    ),
    createTransport: new HookMap(
      (_name: string) =>
        new AsyncSeriesBailHook<[TransportOptions, CallContext], RunningTransport | undefined>(['options', 'ctx']),
      'createTransport',
    ),
    extract: new HookMap(
      (_extension: string) =>
        new AsyncSeriesBailHook<[ExtractRequest, CallContext], ExtractedText | undefined>(['request', 'ctx']),
      'extract',
    ),
    // the pipeline
    document: new AsyncSeriesWaterfallHook<[DocumentDraft, CallContext]>(['draft', 'ctx'], 'document'),
    chunk: new AsyncSeriesBailHook<[ChunkRequest, CallContext], string[] | ChunkPiece[] | undefined>(
      ['request', 'ctx'],
      'chunk',
    ),
    query: new AsyncSeriesWaterfallHook<[SearchRequest, CallContext]>(['request', 'ctx'], 'query'),
    rank: new AsyncSeriesWaterfallHook<[Hit[], SearchRequest, CallContext, RankControl], Hit[], RankTapOptions>(
      ['hits', 'request', 'ctx', 'control'],
      'rank',
    ),
    // after every search that answered: observers only (a query log, metrics); a throwing tap is logged, never thrown
    searched: new SyncHook<[SearchRecord, CallContext]>(['record', 'ctx'], 'searched'),
    toolCall: new AsyncSeriesBailHook<[ToolCall, CallContext], unknown>(['call', 'ctx'], 'toolCall'),
    toolResult: new AsyncSeriesWaterfallHook<[unknown, ToolCall, CallContext]>(['result', 'call', 'ctx'], 'toolResult'),
    // collectors
    tools: new SyncHook<[Collector<PluginToolDef>]>(['tools'], 'tools'),
    agents: new SyncHook<[Collector<PluginAgentDef>]>(['agents'], 'agents'),
    /** MCP resources and resource templates (the mcp-server plugin collects them when an MCP transport starts). */
    resources: new SyncHook<[Collector<PluginResourceDef>]>(['resources'], 'resources'),
    // async series: a tap may import its command module first (`tap` with a synchronous function works too).
    // A tap that names its commands (`{ name, commands: ['search'] }`) is the only one called when one of
    // them is run (the CLI's start-up); every tap is called for help, completions and unnamed commands.
    commands: new AsyncSeriesHook<[CliProgram], CommandsTapOptions>(['program'], 'commands'),
    doctor: new AsyncParallelHook<[Collector<DoctorCheck>, CallContext]>(['checks', 'ctx'], 'doctor'),
  });
}

export type KernelHooks = ReturnType<typeof createHooks>;
export type HookName = keyof KernelHooks;

type CallMethods = 'call' | 'callAsync' | 'promise';
/** A hook as plugins see it: tap, tapPromise, intercept, withOptions; never the call methods. */
type TapOnlyHook<H> = Omit<H, CallMethods>;
type TapOnlyMap<M> = M extends HookMap<infer H> ? { for(key: string): TapOnlyHook<H> } : TapOnlyHook<M>;
export type TapOnlyHooks = { readonly [K in HookName]: TapOnlyMap<KernelHooks[K]> };

/** Time a single tap may take before it counts as never settling (ms), per hook. */
export const TAP_TIMEOUT_MS: Readonly<Record<HookName, number>> = Object.freeze({
  boot: 10_000,
  ready: 10_000,
  shutdown: 10_000,
  resolvePlugin: 30_000,
  createStore: 0,
  createConnector: 30_000,
  createEmbedder: 0,
  createTransport: 30_000,
  extract: 60_000,
  document: 30_000,
  chunk: 30_000,
  query: 10_000,
  rank: 10_000,
  searched: 0,
  toolCall: 10_000,
  toolResult: 10_000,
  tools: 0,
  agents: 0,
  resources: 0,
  commands: 0,
  doctor: 30_000,
});
