// Validates what a provider returned and turns it into unit-length Float32Arrays: one vector per
// text, finite numbers, one length for all, equal to the configured dims when set.
import { KbctxError } from '../domain/errors.ts';
import { normalizeInPlace } from '../search/unit-vector.ts';

export function toUnitVectors(
  raw: unknown,
  expectedCount: number,
  dims: number | null,
  provider: string,
): Float32Array[] {
  if (!Array.isArray(raw) || raw.length !== expectedCount) {
    throw new KbctxError(
      'upstream_error',
      `${provider} returned ${Array.isArray(raw) ? raw.length : 'no'} vectors for ${expectedCount} texts`,
    );
  }
  const out: Float32Array[] = [];
  for (const v of raw) {
    if (!Array.isArray(v) || v.length === 0 || !v.every((x) => typeof x === 'number' && Number.isFinite(x))) {
      throw new KbctxError('upstream_error', `${provider} returned a malformed vector`);
    }
    const want = dims ?? out[0]?.length ?? v.length;
    if (v.length !== want) {
      throw new KbctxError(
        'upstream_error',
        dims === null
          ? `${provider} returned vectors of different lengths (${want} and ${v.length})`
          : `${provider} returned ${v.length}-dimensional vectors but [embedding] dims = ${dims}; fix dims (or the ` +
              `model) and run \`kbctx embed rebuild\``,
      );
    }
    out.push(normalizeInPlace(Float32Array.from(v as number[])));
  }
  return out;
}
