// The sampler the standard OTEL_TRACES_SAMPLER / OTEL_TRACES_SAMPLER_ARG variables name (the SDK's own tracer provider
// no longer reads them): parentbased_always_on by default, every value of the specification but jaeger_remote and xray.
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type Sampler,
} from '@opentelemetry/sdk-trace';

export function samplerFromEnv(env: NodeJS.ProcessEnv): Sampler {
  const arg = Number(env['OTEL_TRACES_SAMPLER_ARG']);
  const ratio = () => new TraceIdRatioBasedSampler(Number.isFinite(arg) && arg >= 0 && arg <= 1 ? arg : 1);
  switch (env['OTEL_TRACES_SAMPLER']?.trim().toLowerCase()) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return ratio();
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: ratio() });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}
