// The metrics plugin's taps on the kernel's hooks, added when the first listener starts: tool calls
// (`toolCall` marks the start, `toolResult` the end; the `search` tool's mode and result count) and, when
// other `rank` taps exist, the rank stage's time and its uncacheable (fail-open) calls. Observation only:
// every tap returns its input, and names an empty cache-key part so ranked pages stay cached (ADR 0197).
import { STAGE, type Hit, type RankControl, type SearchRequest, type TapOnlyHooks } from '../../core/api/plugin.ts';
import type { Recorder } from './recorder.ts';

export function observeKernel(hooks: TapOnlyHooks, recorder: Recorder): void {
  const started = new WeakMap<object, number>();
  hooks.toolCall.tap({ name: 'metrics', stage: STAGE.FIRST }, (call) => {
    started.set(call, performance.now());
    return undefined;
  });
  hooks.toolResult.tap({ name: 'metrics', stage: STAGE.FALLBACK + 1 }, (result, call) => {
    const t0 = started.get(call);
    if (t0 !== undefined) recorder.toolCall(call, result, (performance.now() - t0) / 1000);
    return undefined;
  });
  // Without other rank taps, a tap of ours would send every search down the deeper ranked path: none then.
  if (hooks.rank.taps.length === 0) return;
  const rankStarted = new WeakMap<SearchRequest, number>();
  const cacheKey = (): string => '';
  hooks.rank.tap({ name: 'metrics', stage: STAGE.FIRST - 1, cacheKey }, (hits: Hit[], request, _ctx, control) => {
    rankStarted.set(request, performance.now());
    countUncacheable(control, () => recorder.rankUncacheable());
    return hits;
  });
  hooks.rank.tap({ name: 'metrics', stage: STAGE.FALLBACK + 1, cacheKey }, (hits: Hit[], request) => {
    const t0 = rankStarted.get(request);
    if (t0 !== undefined) recorder.rankDone((performance.now() - t0) / 1000);
    return hits;
  });
}

// The control is this call's own object (search.ts makes one per ranked search): wrapping it counts the calls a
// tap marked uncacheable (rerank's fail-open), once each, without changing what the taps do.
function countUncacheable(control: RankControl, count: () => void): void {
  const original = control.uncacheable.bind(control);
  let counted = false;
  control.uncacheable = (reason: string) => {
    if (!counted) count();
    counted = true;
    original(reason);
  };
}
