// The words a chunk's symbol path is found by in keyword search (ADR 0210): the stores add them to the chunk's
// indexed text, so `parseConfig`, `parse config` and `parse_config` all find `Loader.parseConfig`. Pure.
//
// 1. Cut the path into its parts at anything but letters, digits and `_` (`.`, `::`, `#`, `/`).
// 2. Keep each part as written (`parseConfig`, one token to the index), then its words: split at `_`, at a
//    lower-case letter or digit followed by a capital, and before the last capital of a run (`HTTPServer`).

export function symbolWords(symbol: string): string {
  const parts = symbol.split(/[^\p{L}\p{N}_]+/u).filter(Boolean);
  const words = parts.flatMap((part) =>
    part
      .split(/_+/)
      .flatMap((w) =>
        w
          .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
          .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
          .split(' '),
      )
      .filter(Boolean),
  );
  return [...new Set([...parts, ...words])].join(' ');
}
