// A query log as an eval set (ADR 0220): each distinct logged query text becomes a query, and the documents
// it returned most recently become its pseudo-qrels (the first `top`, graded top … 1 by rank). Measuring
// other settings against them shows how far a change moves today's answers, not whether they are right.
// Pure: text in, rows out; redacted lines (no text) and lines that found nothing are counted, not used.

export interface LogQueries {
  queries: { _id: string; text: string }[];
  /** `query-id  corpus-id  score` rows (kbctx document ids). */
  qrels: [string, string, number][];
  lines: number;
  redacted: number;
  empty: number;
  malformed: number;
}

export function logToBeir(text: string, top: number): LogQueries {
  const latest = new Map<string, string[]>(); // query text → its last logged result ids
  let lines = 0;
  let redacted = 0;
  let empty = 0;
  let malformed = 0;
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue;
    lines++;
    const line = parseLine(raw);
    if (line === undefined) malformed++;
    else if (line.query === undefined) redacted++;
    else if (line.ids.length === 0) empty++;
    else {
      latest.delete(line.query); // re-inserted: the order is that of each query's last search
      latest.set(line.query, line.ids.slice(0, top));
    }
  }
  const queries: LogQueries['queries'] = [];
  const qrels: LogQueries['qrels'] = [];
  let n = 0;
  for (const [query, ids] of latest) {
    const id = `q${++n}`;
    queries.push({ _id: id, text: query });
    ids.forEach((doc, rank) => qrels.push([id, doc, top - rank]));
  }
  return { queries, qrels, lines, redacted, empty, malformed };
}

function parseLine(raw: string): { query: string | undefined; ids: string[] } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined; // a line cut short by a crash or a full disk
  }
  if (typeof value !== 'object' || value === null || !Array.isArray((value as { results?: unknown }).results))
    return undefined;
  const { query, results } = value as { query?: unknown; results: unknown[] };
  const ids = results.flatMap((r) =>
    typeof r === 'object' && r !== null && typeof (r as { id?: unknown }).id === 'string'
      ? [(r as { id: string }).id]
      : [],
  );
  return { query: typeof query === 'string' ? query : undefined, ids };
}
