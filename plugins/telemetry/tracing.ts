// Traces with the OpenTelemetry SDK (ADR 0222), loaded only when an endpoint is set (index.ts). One tracer provider
// per process, exporting over OTLP/HTTP (JSON) in batches; spans for:
// 1. each stage the engine reports (`kbctx.stage-observer`: search, search.keyword, sync.scan, …);
// 2. each tap of the pipeline hooks (a tapable `register` interceptor wraps the tap: `rank rerank`, `chunk …`);
// 3. each HTTP request fastify routes (its `fastify.request.handler` diagnostics channel), the parent of the rest,
//    itself the child of the caller's span when the request carries a W3C `traceparent` header.
// Parent and child follow the async context (an AsyncLocalStorage of our own as the context manager).
import { AsyncLocalStorage } from 'node:async_hooks';
import diagnostics from 'node:diagnostics_channel';
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type ContextManager,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { stageObserverService, type PluginKernel, type StageObserver } from '../../core/api/plugin.ts';
import { samplerFromEnv } from './sampler.ts';

/** The pipeline hooks whose taps get a span each. */
const TRACED_HOOKS = ['query', 'rank', 'document', 'chunk', 'toolCall', 'toolResult'] as const;

/** Starts tracing for this kernel's process: the provider, the stage observer, the hooks' and requests' spans. */
export function startTracing(kernel: PluginKernel, url: string): void {
  const contextManager = new AlsContextManager();
  const provider = new TracerProvider({
    // service.name kbctx unless OTEL_SERVICE_NAME / OTEL_RESOURCE_ATTRIBUTES say otherwise (the env detector's win).
    resource: defaultResource()
      .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: 'kbctx' }))
      .merge(detectResources({ detectors: [envDetector] })),
    sampler: samplerFromEnv(process.env),
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url }) })],
  });
  // Global, so a third-party plugin using @opentelemetry/api itself joins the same traces.
  context.setGlobalContextManager(contextManager);
  trace.setGlobalTracerProvider(provider);
  // A caller's `traceparent` header makes a request's span its child (W3C Trace Context).
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const tracer = provider.getTracer('kbctx');

  kernel.provide(stageObserverService, stageObserver(tracer));
  for (const hook of TRACED_HOOKS)
    kernel.hooks[hook].intercept({
      register: (tap) => ({ ...tap, fn: tracedTap(tracer, hook, tap as unknown as AnyTap) }),
    });
  const untraceRequests = traceRequests(tracer, contextManager);
  // Last out: the batch is flushed when the command or the server ends.
  kernel.hooks.shutdown.tapPromise('telemetry', async () => {
    untraceRequests();
    propagation.disable();
    // A collector that is down costs the spans, never the command.
    await provider
      .shutdown()
      .catch((error: unknown) =>
        kernel.log.warn(`traces not sent to ${url}: ${error instanceof Error ? error.message : String(error)}`),
      );
    trace.disable();
    context.disable();
  });
}

function stageObserver(tracer: Tracer): StageObserver {
  return {
    stage: (name, attributes, run) => tracer.startActiveSpan(name, { attributes }, (span) => settle(span, run)),
  };
}

interface AnyTap {
  name: string;
  type: string;
  fn: (...args: unknown[]) => unknown;
}

/** The tap's function inside a span `<hook> <tap name>`, active while it runs (its own spans are children). */
function tracedTap(tracer: Tracer, hook: string, tap: AnyTap): (...args: unknown[]) => unknown {
  const name = `${hook} ${tap.name}`;
  const attributes: Attributes = { 'kbctx.hook': hook, 'kbctx.tap': tap.name };
  const fn = tap.fn;
  if (tap.type === 'async')
    return (...args) => {
      const callback = args.pop() as (error: unknown, result?: unknown) => void;
      const span = tracer.startSpan(name, { attributes });
      return context.with(trace.setSpan(context.active(), span), () =>
        fn(...args, (error: unknown, result?: unknown) => {
          end(span, error);
          callback(error, result);
        }),
      );
    };
  return (...args) => tracer.startActiveSpan(name, { attributes }, (span) => settle(span, () => fn(...args)));
}

/** Runs `run` and ends the span when it returns or its promise settles, recording a failure. */
function settle<T>(span: Span, run: () => T): T {
  let result: T;
  try {
    result = run();
  } catch (error) {
    end(span, error);
    throw error;
  }
  // A sync tap may return nothing (the `searched` hook's, a `toolResult` observer's).
  if (result !== null && result !== undefined && typeof (result as { then?: unknown }).then === 'function')
    return (result as unknown as Promise<unknown>).then(
      (value) => {
        end(span, undefined);
        return value;
      },
      (error: unknown) => {
        end(span, error);
        throw error;
      },
    ) as T;
  end(span, undefined);
  return result;
}

function end(span: Span, error: unknown): void {
  if (error !== undefined && error !== null) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
  }
  span.end();
}

interface HandlerMessage {
  request: { headers: Record<string, string | string[] | undefined> };
  reply: { raw: { statusCode: number; once(event: 'close', listener: () => void): unknown } };
  route: { url: string; method: string };
  error?: unknown;
}

/**
 * A SERVER span per routed request, made the active context for its handler: fastify runs the handler through
 * `runStores` of its `fastify.request.handler` tracing channel, so a store bound there is what the handler sees.
 * Ends when the response closes. Returns the unsubscriber.
 */
function traceRequests(tracer: Tracer, contextManager: AlsContextManager): () => void {
  const channels = diagnostics.tracingChannel<Context, HandlerMessage & object>('fastify.request.handler');
  const spans = new WeakMap<object, Span>();
  const start = (message: HandlerMessage & object): Context => {
    const { method, url } = message.route;
    const parent = propagation.extract(ROOT_CONTEXT, message.request.headers);
    const span = tracer.startSpan(
      `${method} ${url}`,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': method, 'http.route': url } },
      parent,
    );
    spans.set(message, span);
    message.reply.raw.once('close', () => {
      const status = message.reply.raw.statusCode;
      span.setAttribute('http.response.status_code', status);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    return trace.setSpan(parent, span);
  };
  const failed = (message: HandlerMessage & object): void => {
    const { error } = message;
    if (error instanceof Error) spans.get(message)?.recordException(error);
  };
  channels.start.bindStore(contextManager.storage, start);
  channels.error.subscribe(failed as (message: unknown) => void);
  return () => {
    channels.start.unbindStore(contextManager.storage);
    channels.error.unsubscribe(failed as (message: unknown) => void);
  };
}

/** The context manager: one AsyncLocalStorage, which the request channel binds too. */
class AlsContextManager implements ContextManager {
  readonly storage = new AsyncLocalStorage<Context>();
  active(): Context {
    return this.storage.getStore() ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    ctx: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    return this.storage.run(ctx, () => fn.call(thisArg, ...args));
  }
  bind<T>(ctx: Context, target: T): T {
    if (typeof target !== 'function') return target;
    const fn = target as (...args: unknown[]) => unknown;
    return ((...args: unknown[]) => this.with(ctx, () => fn(...args))) as T;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.storage.disable();
    return this;
  }
}
