// Named stages order the taps of one hook (tapable sorts by `stage`, ties keep registration order).
// First-party defaults tap at FALLBACK, so a user's plugin wins without `before`.
export const STAGE = Object.freeze({ FIRST: -1000, EARLY: -100, DEFAULT: 0, LATE: 100, FALLBACK: 1000 });
