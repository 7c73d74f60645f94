// The telemetry plugin's endpoint rule (the OTEL_* variables before `[telemetry]`, the off switches) and the sampler
// the standard variables name.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { tracesUrl } from '../../../plugins/telemetry/index.ts';
import { samplerFromEnv } from '../../../plugins/telemetry/sampler.ts';

const config = { otlpEndpoint: 'http://config:4318/' };

it(
  'the traces endpoint: …_TRACES_ENDPOINT as is, then the ' + 'base variable, then the config, each base + /v1/traces',
  () => {
    assert.equal(tracesUrl({}, { otlpEndpoint: null }), null);
    assert.equal(tracesUrl({}, config), 'http://config:4318/v1/traces');
    assert.equal(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://env:4318' }, config), 'http://env:4318/v1/traces');
    assert.equal(
      tracesUrl(
        { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://env:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://t:1/custom' },
        config,
      ),
      'http://t:1/custom',
    );
    assert.equal(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: '' }, config), 'http://config:4318/v1/traces');
  },
);

it('OTEL_SDK_DISABLED=true and OTEL_TRACES_EXPORTER=none turn traces off', () => {
  const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://env:4318' };
  assert.equal(tracesUrl({ ...env, OTEL_SDK_DISABLED: 'TRUE' }, config), null);
  assert.equal(tracesUrl({ ...env, OTEL_TRACES_EXPORTER: 'none' }, config), null);
  assert.equal(tracesUrl({ ...env, OTEL_SDK_DISABLED: 'false' }, config), 'http://env:4318/v1/traces');
});

it('OTEL_TRACES_SAMPLER names the sampler; parent-based always-on by default', () => {
  assert.match(samplerFromEnv({}).toString(), /ParentBased\{root=AlwaysOnSampler/);
  assert.equal(samplerFromEnv({ OTEL_TRACES_SAMPLER: 'always_off' }).toString(), 'AlwaysOffSampler');
  assert.match(
    samplerFromEnv({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' }).toString(),
    /root=TraceIdRatioBased\{0\.25\}/,
  );
  assert.match(
    samplerFromEnv({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: 'x' }).toString(),
    /TraceIdRatioBased\{1\}/,
  );
});
