// The SDK's schema failures arrive as a JSON list of zod issues; this turns them into one readable
// line naming each parameter (`params.name: expected string, received number`). Pure.

interface Issue {
  path?: unknown;
  message?: unknown;
  /** invalid_union: the issues of each alternative. */
  errors?: unknown;
}

const MAX_ISSUES = 3;

/** `text` unchanged when it is not such a list. */
export function describeIssues(text: string): string {
  let issues: unknown;
  try {
    issues = JSON.parse(text);
  } catch {
    return text;
  }
  if (!Array.isArray(issues) || issues.length === 0 || !issues.every(isIssue)) return text;
  const lines = issues.flatMap((issue) => describe(issue, []));
  return (
    lines.slice(0, MAX_ISSUES).join('; ') + (lines.length > MAX_ISSUES ? `; and ${lines.length - MAX_ISSUES} more` : '')
  );
}

const isIssue = (value: unknown): value is Issue =>
  value !== null && typeof value === 'object' && Array.isArray((value as Issue).path);

/** A union names the problems of its first alternative (the spec shape); a plain issue its path and message. */
function describe(issue: Issue, prefix: readonly unknown[]): string[] {
  const path = [...prefix, ...(issue.path as unknown[])];
  const first: unknown = Array.isArray(issue.errors) ? issue.errors[0] : undefined;
  if (Array.isArray(first) && first.length > 0 && first.every(isIssue))
    return first.flatMap((inner) => describe(inner, path));
  const where = path.length === 0 ? 'request' : path.map(String).join('.');
  return [`${where}: ${String(issue.message ?? 'invalid')}`];
}
