// Rewraps the comments of one source file that are wider than the line limit: runs of `//` lines and `/* */`/`/** */`
// blocks on lines of their own are refilled; a trailing `// …` after code moves above its line. The code is never
// touched: the file's tokens are compared before and after, and a file whose tokens would change is left as it was.
import ts from 'typescript';
import { columns, rewrapLines } from './paragraphs.ts';

export interface Rewrapped {
  text: string;
  /** Comments refilled or moved, by the 1-based line where each started. */
  changed: number[];
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

const kindOf = (file: string): ts.ScriptKind => (/\.[cm]?js$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS);

/** String, number, regular expression and template tokens (a template's head, middle and tail included). */
const isLiteral = (kind: ts.SyntaxKind): boolean =>
  kind >= ts.SyntaxKind.FirstLiteralToken && kind <= ts.SyntaxKind.LastTemplateToken;

function parse(file: string, text: string): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kindOf(file));
}

/** Every token (leaf) of the tree with its kind, and the comment ranges between them. */
function scan(source: ts.SourceFile): { tokens: string[]; comments: ts.CommentRange[]; literals: [number, number][] } {
  const text = source.text;
  const tokens: string[] = [];
  const literals: [number, number][] = [];
  const comments = new Map<number, ts.CommentRange>();
  const visit = (node: ts.Node): void => {
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) return; // comment text
    for (const c of ts.getLeadingCommentRanges(text, node.pos) ?? []) comments.set(c.pos, c);
    for (const c of ts.getTrailingCommentRanges(text, node.end) ?? []) comments.set(c.pos, c);
    const children = node.getChildren(source);
    if (children.length === 0 && node.kind !== ts.SyntaxKind.SyntaxList) {
      const start = node.getStart(source);
      tokens.push(`${node.kind}:${text.slice(start, node.end)}`);
      if (node.end - start > 1 && isLiteral(node.kind)) {
        literals.push([start, node.end]);
      }
    }
    for (const child of children) visit(child);
  };
  visit(source);
  return { tokens, comments: [...comments.values()].sort((a, b) => a.pos - b.pos), literals };
}

const lineStart = (text: string, pos: number): number => text.lastIndexOf('\n', pos - 1) + 1;
const lineEnd = (text: string, pos: number): number => {
  const end = text.indexOf('\n', pos);
  return end === -1 ? text.length : end;
};

/** `// ` comment lines on lines of their own, grouped into runs of consecutive lines with the same indentation. */
function lineCommentRuns(text: string, comments: readonly ts.CommentRange[]): ts.CommentRange[][] {
  const runs: ts.CommentRange[][] = [];
  let previous: ts.CommentRange | undefined;
  for (const c of comments) {
    const own =
      c.kind === ts.SyntaxKind.SingleLineCommentTrivia && /^\s*$/.test(text.slice(lineStart(text, c.pos), c.pos));
    if (!own) {
      previous = undefined;
      continue;
    }
    const run = runs.at(-1);
    const adjacent =
      previous !== undefined &&
      run !== undefined &&
      run.at(-1) === previous &&
      /^\n[ \t]*$/.test(text.slice(previous.end, c.pos)) &&
      c.pos - lineStart(text, c.pos) === previous.pos - lineStart(text, previous.pos);
    if (adjacent) run.push(c);
    else runs.push([c]);
    previous = c;
  }
  return runs;
}

function lineRunEdit(text: string, run: readonly ts.CommentRange[], width: number): Edit | undefined {
  const first = run[0]!;
  const last = run.at(-1)!;
  const indent = text.slice(lineStart(text, first.pos), first.pos);
  const bodies = run.map((c) => text.slice(c.pos, c.end));
  if (!bodies.some((b) => columns(indent + b) > width)) return undefined;
  if (bodies.some((b) => !/^\/\/( |$)/.test(b) || b.startsWith('///'))) return undefined;
  const lines = rewrapLines(
    bodies.map((b) => b.slice(3)),
    width - columns(indent) - 3,
  );
  const replacement = lines.map((l, i) => `${i === 0 ? '' : indent}//${l === '' ? '' : ` ${l}`}`).join('\n');
  return { start: first.pos, end: last.end, text: replacement };
}

/**
 * A block comment on lines of its own: its text lines without the ` * ` prefix, or undefined for a shape kept as is.
 */
function blockLines(body: string): { opener: string; lines: string[] } | undefined {
  const opener = body.startsWith('/**') ? '/**' : '/*';
  const inner = body.slice(opener.length, -2);
  const raw = inner.split('\n');
  const lines: string[] = [];
  for (const [i, line] of raw.entries()) {
    if (i === 0) lines.push(line.replace(/^ /, '').trimEnd());
    else if (/^\s*\*( |$)/.test(line)) lines.push(line.replace(/^\s*\*( |$)/, '').trimEnd());
    else if (/^\s*$/.test(line) && i === raw.length - 1) lines.push('');
    else return undefined;
  }
  while (lines[0] === '') lines.shift();
  while (lines.at(-1) === '') lines.pop();
  return { opener, lines };
}

function blockEdit(text: string, c: ts.CommentRange, width: number): Edit | undefined {
  const start = lineStart(text, c.pos);
  const indent = text.slice(start, c.pos);
  if (!/^\s*$/.test(indent) || !/^\s*$/.test(text.slice(c.end, lineEnd(text, c.end)))) return undefined;
  const body = text.slice(c.pos, c.end);
  if (!body.split('\n').some((l, i) => columns((i === 0 ? indent : '') + l) > width)) return undefined;
  const parsed = blockLines(body);
  if (parsed === undefined || parsed.lines.length === 0) return undefined;
  const lines = rewrapLines(parsed.lines, width - columns(indent) - 3);
  const fits = lines.every((l) => columns(indent) + 3 + columns(l) <= width);
  if (!fits && lines.join('\n') === parsed.lines.join('\n')) return undefined; // nothing to refill (a typed tag, a URL)
  const replacement = [parsed.opener, ...lines.map((l) => `${indent} *${l === '' ? '' : ` ${l}`}`), `${indent} */`];
  return { start: c.pos, end: c.end, text: replacement.join('\n') };
}

/** A `// …` after code on a line wider than the limit: the comment goes on lines of its own above that line. */
function trailingEdit(text: string, c: ts.CommentRange, literals: readonly [number, number][], width: number): Edit[] {
  const start = lineStart(text, c.pos);
  const end = lineEnd(text, c.pos);
  const code = text.slice(start, c.pos);
  if (/^\s*$/.test(code) || columns(text.slice(start, end)) <= width) return [];
  if (c.end !== end && !/^\s*$/.test(text.slice(c.end, end))) return [];
  // the line starts inside a string or template
  if (literals.some(([from, to]) => from < start && start < to)) return [];
  const body = text.slice(c.pos, c.end);
  if (!/^\/\/ /.test(body) || /^\/\/ (eslint|@ts-|biome-ignore|prettier-ignore)/.test(body)) return [];
  const indent = /^\s*/.exec(code)![0];
  const lines = rewrapLines([body.slice(3)], width - columns(indent) - 3);
  const above = lines.map((l) => `${indent}// ${l}\n`).join('');
  return [
    { start, end: start, text: above },
    { start: start + code.trimEnd().length, end: c.end, text: '' },
  ];
}

export function rewrapComments(file: string, text: string, width = 120): Rewrapped {
  if (!text.split('\n').some((l) => columns(l) > width)) return { text, changed: [] };
  const source = parse(file, text);
  const { tokens, comments, literals } = scan(source);
  const edits: Edit[] = [
    ...lineCommentRuns(text, comments).map((run) => lineRunEdit(text, run, width)),
    ...comments.filter((c) => c.kind === ts.SyntaxKind.MultiLineCommentTrivia).map((c) => blockEdit(text, c, width)),
    ...comments
      .filter((c) => c.kind === ts.SyntaxKind.SingleLineCommentTrivia)
      .flatMap((c) => trailingEdit(text, c, literals, width)),
  ].filter((e): e is Edit => e !== undefined && text.slice(e.start, e.end) !== e.text);
  if (edits.length === 0) return { text, changed: [] };
  let out = text;
  for (const e of edits.sort((a, b) => b.start - a.start || b.end - a.end)) {
    out = out.slice(0, e.start) + e.text + out.slice(e.end);
  }
  const after = scan(parse(file, out)).tokens;
  if (after.length !== tokens.length || after.some((t, i) => t !== tokens[i])) {
    throw new Error(`${file}: rewrapping would change the code; left as it was`);
  }
  const changed = [...new Set(edits.map((e) => source.getLineAndCharacterOfPosition(e.start).line + 1))].sort(
    (a, b) => a - b,
  );
  return { text: out, changed };
}
