// One regular expression from pieces, so a long pattern can be wrapped at 120 columns: the sources are joined
// unchanged and the last piece's flags apply. Split only where each piece is a pattern of its own.
export function joinedRegExp(...pieces: RegExp[]): RegExp {
  return new RegExp(pieces.map((p) => p.source).join(''), pieces.at(-1)?.flags);
}
