// English function words that carry no topical signal. Kept deliberately small: words such as
// "not", "more" or "without" can matter in technical text and are searchable.
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be been being but by can could did do does for from had has have how i if in into is it its ' +
    'of on or our so such than that the their them then there these they this those to was we were what when where ' +
    'which while who whom why will with would you your'
  ).split(' '),
);
