// First-party plugin: OpenTelemetry traces of searches, syncs and HTTP requests over OTLP/HTTP (ADR 0222). It owns
// `[telemetry]`; with no endpoint (OTEL_EXPORTER_OTLP_ENDPOINT, …_TRACES_ENDPOINT or `[telemetry] otlp_endpoint`) it
// does nothing and nothing of OpenTelemetry is imported. With one, tracing.ts (which imports the SDK) starts at apply.
import {
  configError,
  definePlugin,
  hostService,
  requireOwn,
  sectionOf,
  type Config,
  type ConfigSection,
} from '../../core/api/plugin.ts';
// Required only with an endpoint, so a process without one loads no more than this index.
import type * as Tracing from './tracing.ts';

// `[telemetry]` (ADR 0164), here rather than in a file of its own: `kbctx search` loads one module for this plugin.

export interface TelemetryConfig {
  /** The OTLP/HTTP base URL (`/v1/traces` is appended), as OTEL_EXPORTER_OTLP_ENDPOINT; null: unset. */
  otlpEndpoint: string | null;
}

export const telemetrySection: ConfigSection<TelemetryConfig> = {
  schema: {
    type: 'object',
    properties: {
      otlp_endpoint: {
        type: 'string',
        description:
          'the OTLP/HTTP collector to send traces to (http://host:4318; /v1/traces is appended); ' +
          'OTEL_EXPORTER_OTLP_ENDPOINT wins',
      },
    },
    additionalProperties: false,
  },
  // Checked here, not with a `pattern`: the schema stays in core/config/json-check.ts's subset (no ajv at start-up).
  toConfig: (s, at) => {
    const endpoint = s['otlp_endpoint'];
    if (typeof endpoint !== 'string') return { otlpEndpoint: null };
    if (!/^https?:\/\/[^/]/.test(endpoint)) at.fail('otlp_endpoint', 'must be an http:// or https:// URL');
    return { otlpEndpoint: endpoint };
  },
};

/** `[telemetry]` as loaded (absent: no endpoint). */
export const telemetryConfigOf = (config: Config): TelemetryConfig =>
  sectionOf<TelemetryConfig | undefined>(config, 'telemetry') ?? { otlpEndpoint: null };

/**
 * The OTLP/HTTP traces URL, or null when traces are off: OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none turn them
 * off; else OTEL_EXPORTER_OTLP_TRACES_ENDPOINT (used as is), OTEL_EXPORTER_OTLP_ENDPOINT, then `[telemetry]
 * otlp_endpoint` (each with `/v1/traces` appended), as the OpenTelemetry specification orders them.
 */
export function tracesUrl(env: NodeJS.ProcessEnv, config: TelemetryConfig): string | null {
  if (env['OTEL_SDK_DISABLED']?.trim().toLowerCase() === 'true') return null;
  if (env['OTEL_TRACES_EXPORTER']?.trim().toLowerCase() === 'none') return null;
  const traces = env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']?.trim();
  if (traces) return traces;
  const base = env['OTEL_EXPORTER_OTLP_ENDPOINT']?.trim() || config.otlpEndpoint;
  return base ? `${base.replace(/\/+$/, '')}/v1/traces` : null;
}

const plugin = definePlugin({
  name: 'telemetry',
  version: '0.2.0',
  kbctx: '^0.2',
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  configSections: { telemetry: telemetrySection },
  apply(kernel) {
    const host = kernel.use(hostService);
    const url = tracesUrl(host.env, telemetryConfigOf(host.config));
    if (url === null) return;
    // Synchronous: the hooks' interceptors must be in place before any tap runs.
    let tracing: typeof Tracing;
    try {
      tracing = requireOwn<typeof Tracing>(import.meta.url, './tracing.ts');
    } catch (error) {
      if (!/MODULE_NOT_FOUND/.test(String((error as { code?: unknown }).code))) throw error;
      throw configError(
        `traces are on (${url}) but the OpenTelemetry packages are not installed (they are optional ` +
          `dependencies): run \`npm install @opentelemetry/api @opentelemetry/core @opentelemetry/sdk-trace ` +
          `@opentelemetry/exporter-trace-otlp-http @opentelemetry/resources @opentelemetry/semantic-conventions\`, ` +
          `or unset the endpoint`,
      );
    }
    tracing.startTracing(kernel, url);
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
