// Packs syntax units (syntax-units.ts) into chunks. Pure: source, units and budget in, pieces out.
//
// 1. Adjacent units of one scope (the children of one node) are merged while the result fits the
//    budget: small siblings (imports, constants, short functions) go together, and no unit is cut, so a
//    chunk holds whole definitions (cAST's split-then-merge; ADR 0208 has the measurements).
// 2. A chunk's text is its container's header (context, e.g. `class A {`), then the source from the
//    start of its first unit's line (when only indentation precedes it) to the end of its last unit.
// 3. Lines are 1-based and inclusive, of the chunk's own source span (the header is context, not counted).
//    The symbol is the units' symbol paths, distinct, joined by ", ".
import type { ChunkPiece } from '../../core/api/plugin.ts';
import { indentStart, type Unit, type UnitBudget } from './syntax-units.ts';

export function packUnits(source: string, units: readonly Unit[], budget: UnitBudget, lang: string): ChunkPiece[] {
  const lineStarts = lineStartsOf(source);
  const groups: Unit[][] = [];
  let current: Unit[] = [];
  const tokensOf = (group: readonly Unit[]): number =>
    group.length === 0 ? 0 : budget.tokens(textOf(source, group)) + 1;
  for (const unit of units) {
    const last = current.at(-1);
    const joins = last !== undefined && last.scope === unit.scope && tokensOf([...current, unit]) <= budget.maxTokens;
    if (!joins && current.length > 0) {
      groups.push(current);
      current = [];
    }
    current.push(unit);
  }
  if (current.length > 0) groups.push(current);
  return groups
    .map((group) => toPiece(source, lineStarts, group, lang))
    .filter((piece): piece is ChunkPiece => piece !== undefined);
}

function textOf(source: string, group: readonly Unit[]): string {
  const first = group[0]!;
  const body = source.slice(indentStart(source, first.start), group.at(-1)!.end).trimEnd();
  return first.header === '' ? body : `${first.header}\n${body}`;
}

function toPiece(
  source: string,
  lineStarts: readonly number[],
  group: readonly Unit[],
  lang: string,
): ChunkPiece | undefined {
  const first = group[0]!;
  const end = group.at(-1)!.end;
  if (source.slice(first.start, end).trim() === '') return undefined;
  const symbols = [...new Set(group.map((u) => u.symbol).filter((s) => s !== undefined))];
  const trimmedEnd = first.start + source.slice(first.start, end).trimEnd().length;
  return {
    text: textOf(source, group),
    lineStart: rowOf(lineStarts, first.start) + 1,
    lineEnd: rowOf(lineStarts, Math.max(first.start, trimmedEnd - 1)) + 1,
    ...(symbols.length > 0 ? { symbol: symbols.join(', ') } : {}),
    lang,
  };
}

function lineStartsOf(source: string): number[] {
  const starts = [0];
  for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** The 0-based line holding `index` (binary search over the line starts). */
function rowOf(lineStarts: readonly number[], index: number): number {
  let [lo, hi] = [0, lineStarts.length - 1];
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lineStarts[mid]! <= index) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
