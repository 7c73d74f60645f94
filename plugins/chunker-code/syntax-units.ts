// Cuts a syntax tree into units that follow the code's structure. Pure: a tree (any object with the
// few fields below, as web-tree-sitter's nodes have them) and the source in, units out; no parsing here.
//
// 1. The children of a node are grouped: a run of comments, decorators and attributes directly above a
//    node (no blank line between; one for a doc comment) belongs to it, so a doc comment and leading
//    comments travel with their code.
// 2. A group that fits the budget (with its container's header) is one unit. A definition (function,
//    method, class, …) names the unit: its symbol path is the enclosing definitions' names and its own.
// 3. A group too large is split at its children's boundaries: a class into its members, a function
//    into its statements. The text before the first child (`class A extends B {`, a signature) becomes
//    the header every child unit carries as context; the doc comment and header form a unit of their own.
// 4. A node with no children that is still too large (a long string) is cut at line ends.

export interface SyntaxNode {
  readonly type: string;
  readonly startIndex: number;
  readonly endIndex: number;
  readonly namedChildren: readonly (SyntaxNode | null)[];
  childForFieldName(name: string): SyntaxNode | null;
}

/** What the rules need to know of the language (languages.ts). */
export interface SyntaxRules {
  readonly definitions: ReadonlySet<string>;
  readonly wrappers: ReadonlySet<string>;
}

/** A span of the source (string offsets) that becomes all or part of a chunk. */
export interface Unit {
  start: number;
  end: number;
  /** Symbol path of the definition it holds or lies in; undefined at the top level outside definitions. */
  symbol: string | undefined;
  /** The enclosing definitions' headers, one per line, shown before it as context (empty at the top level). */
  header: string;
  /** The node whose children it is (its start offset; -1 for the root): only units of one scope are packed together. */
  scope: number;
  /** The opening of a split definition (doc comment, signature, `{`), packed with its first children. */
  opens?: boolean;
}

export interface UnitBudget {
  /** The most estimated tokens one unit may hold, header included. */
  maxTokens: number;
  tokens(text: string): number;
}

interface Context {
  path: readonly string[];
  header: string;
  scope: number;
}

interface Group {
  start: number;
  node: SyntaxNode;
}

/** The units of `root`'s children, in source order, covering every named child. */
export function syntaxUnits(source: string, root: SyntaxNode, rules: SyntaxRules, budget: UnitBudget): Unit[] {
  const out: Unit[] = [];
  const visit = (nodes: readonly SyntaxNode[], ctx: Context): void => {
    for (const group of groupComments(source, nodes)) {
      const def = definitionOf(group.node, rules, source);
      const path = def ? [...ctx.path, def.name] : ctx.path;
      const symbol = path.length > 0 ? path.join('.') : undefined;
      const text = source.slice(indentStart(source, group.start), group.node.endIndex);
      if (budget.tokens(ctx.header) + budget.tokens(text) + 1 <= budget.maxTokens) {
        const whole = { start: group.start, end: group.node.endIndex, header: ctx.header, scope: ctx.scope };
        out.push({ ...whole, symbol });
        continue;
      }
      const inner = def?.node ?? group.node;
      const container = inner.childForFieldName('body') ?? inner;
      const children = present(container.namedChildren);
      const first = children[0];
      if (first === undefined) {
        for (const [start, end] of lineCuts(source, group.start, group.node.endIndex, budget, ctx.header))
          out.push({ start, end, symbol, header: ctx.header, scope: ctx.scope });
        continue;
      }
      const own = headerOf(source, indentStart(source, inner.startIndex), first.startIndex, budget);
      const header = [ctx.header, own].filter((h) => h !== '').join('\n');
      // The doc comment and everything before the first child (decorators, signature, `{`): packed with the
      // children (cut at line ends first when it is itself too large).
      if (source.slice(group.start, first.startIndex).trim() !== '') {
        const cuts = lineCuts(source, group.start, first.startIndex, budget, ctx.header);
        cuts.forEach(([start, end], i) => {
          const last = i === cuts.length - 1;
          out.push({
            start,
            end,
            symbol,
            header: ctx.header,
            scope: last ? container.startIndex : ctx.scope,
            opens: last,
          });
        });
      }
      visit(children, { path, header, scope: container.startIndex });
    }
  };
  visit(present(root.namedChildren), { path: [], header: '', scope: -1 });
  return out;
}

const present = (nodes: readonly (SyntaxNode | null)[]): SyntaxNode[] => nodes.filter((n) => n !== null);

/** Comments, decorators and attributes that stand before what they describe (as siblings, in some grammars). */
const LEADING = new Set(['comment', 'line_comment', 'block_comment', 'decorator', 'attribute_item']);
const isLeading = (node: SyntaxNode): boolean => LEADING.has(node.type);

/** Where `index`'s line starts, when only spaces and tabs precede it there (so indentation is kept). */
export function indentStart(source: string, index: number): number {
  let i = index;
  while (i > 0 && (source[i - 1] === ' ' || source[i - 1] === '\t')) i--;
  return i === 0 || source[i - 1] === '\n' ? i : index;
}

/** Step 1: comments directly above a node (at most one line break between) start its group. */
function groupComments(source: string, nodes: readonly SyntaxNode[]): Group[] {
  const groups: Group[] = [];
  let pending: number | undefined; // start of the comments waiting for their node
  let lastEnd = -1;
  let doc = false; // the pending comments end in a doc comment (`/** … */`, `///`): it may stand a blank line above
  for (const node of nodes) {
    const gap = lastEnd < 0 ? '' : source.slice(lastEnd, node.startIndex);
    const adjacent = lastEnd >= 0 && (!/\n[ \t]*\r?\n/.test(gap) || (doc && !/(\n[ \t]*\r?){3}/.test(gap)));
    if (pending !== undefined && !adjacent) {
      groups.push(...commentGroups(nodes, pending, lastEnd));
      pending = undefined;
    }
    if (isLeading(node)) {
      pending ??= node.startIndex;
      doc = /^(\/\*\*|\/\/\/)/.test(source.slice(node.startIndex, node.startIndex + 3));
    } else {
      groups.push({ start: pending ?? node.startIndex, node });
      pending = undefined;
    }
    lastEnd = node.endIndex;
  }
  if (pending !== undefined) groups.push(...commentGroups(nodes, pending, lastEnd));
  return groups;
}

/** Comments no node claims (a licence header, a trailing note): each is a group of its own. */
function commentGroups(nodes: readonly SyntaxNode[], start: number, end: number): Group[] {
  return nodes
    .filter((n) => n.startIndex >= start && n.endIndex <= end)
    .map((node) => ({ start: node.startIndex, node }));
}

/** A definition's name and its innermost node (past wrappers: `export`, decorators, templates). */
function definitionOf(
  node: SyntaxNode,
  rules: SyntaxRules,
  source: string,
): { name: string; node: SyntaxNode } | undefined {
  let inner: SyntaxNode | null = node;
  while (inner && rules.wrappers.has(inner.type))
    inner =
      inner.childForFieldName('declaration') ??
      inner.childForFieldName('definition') ??
      present(inner.namedChildren).find((c) => rules.definitions.has(c.type) || rules.wrappers.has(c.type)) ??
      null;
  if (!inner || !rules.definitions.has(inner.type)) return undefined;
  const name = nameOf(inner, source);
  return name === undefined ? undefined : { name, node: inner };
}

/** The name a definition declares: its `name` field, a declarator's name, or a Go method's `Receiver.name`. */
function nameOf(node: SyntaxNode, source: string): string | undefined {
  const text = (n: SyntaxNode): string => source.slice(n.startIndex, n.endIndex);
  const name = node.childForFieldName('name');
  if (node.type === 'method_declaration' && name) {
    const receiver = node.childForFieldName('receiver'); // Go: func (s *Server) Start()
    const type = receiver && /([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*\)\s*$/.exec(text(receiver));
    if (type) return `${type[1]}.${text(name)}`;
  }
  if (name) return text(name);
  if (node.type === 'impl_item') {
    const type = node.childForFieldName('type'); // Rust: impl Trait for Type
    return type ? text(type) : undefined;
  }
  if (node.type === 'type_declaration') {
    const spec = present(node.namedChildren).find((c) => c.type === 'type_spec' || c.type === 'type_alias');
    const specName = spec?.childForFieldName('name');
    return specName ? text(specName) : undefined;
  }
  // JS/TS `const name = () => …` and C/C++ `int name(…) {…}`: the name sits in a declarator.
  let declarator: SyntaxNode | null | undefined =
    node.childForFieldName('declarator') ?? present(node.namedChildren).find((c) => c.type === 'variable_declarator');
  if (node.type === 'lexical_declaration' || node.type === 'variable_declaration') {
    const value = declarator?.childForFieldName('value');
    if (!value || !/function|arrow|class/.test(value.type)) return undefined;
  }
  for (let depth = 0; declarator && depth < 8; depth++) {
    if (/identifier|name$/.test(declarator.type)) return text(declarator);
    declarator = declarator.childForFieldName('declarator') ?? declarator.childForFieldName('name');
  }
  return undefined;
}

/** Step 3: the header line(s) between a definition's start and its first child, capped at a quarter of the budget. */
function headerOf(source: string, start: number, end: number, budget: UnitBudget): string {
  const lines = source.slice(start, end).trimEnd().split('\n');
  let header = '';
  for (const line of lines) {
    const next = header === '' ? line : `${header}\n${line}`;
    if (budget.tokens(next) > budget.maxTokens / 4) break;
    header = next;
  }
  return header.trimEnd();
}

/** Step 4: [start, end) cut at line ends into spans that fit the budget (a single longer line is cut hard). */
function lineCuts(source: string, start: number, end: number, budget: UnitBudget, header: string): [number, number][] {
  const room = Math.max(1, budget.maxTokens - budget.tokens(header) - 1);
  const maxChars = Math.max(
    1,
    Math.floor((source.slice(start, end).length / Math.max(1, budget.tokens(source.slice(start, end)))) * room),
  );
  const cuts: [number, number][] = [];
  let from = start;
  while (from < end) {
    let to = Math.min(end, from + maxChars);
    if (to < end) {
      const newline = source.lastIndexOf('\n', to - 1);
      if (newline > from) to = newline + 1;
    }
    cuts.push([from, to]);
    from = to;
  }
  return cuts;
}
