// Markdown: YAML front matter becomes metadata (its `title` the title); otherwise the first `# ` heading is the title,
// as plain text (plain-title.ts). The body keeps the Markdown (headings and paragraphs guide the chunker), and the
// file's line numbers: front matter is left as empty lines.
import type { Extracted } from './extract.ts';

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)\r?\n?/;

export async function extractMarkdown(text: string): Promise<Extracted> {
  let body = text;
  let metadata: Record<string, unknown> | undefined;
  const fm = FRONT_MATTER.exec(text);
  if (fm) {
    try {
      const { parse: parseYaml } = await import('yaml'); // loaded only when a file has front matter
      const parsed: unknown = parseYaml(fm[1] ?? '');
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        metadata = toJsonSafe(parsed as Record<string, unknown>);
        // Empty lines stand in for the front matter, so body lines are the file's lines (chunks' line ranges,
        // ADR 0210).
        body = '\n'.repeat(fm[0].split('\n').length - 1) + text.slice(fm[0].length);
      }
    } catch {
      // Not YAML after all: keep the text as it is.
    }
  }
  const fmTitle = metadata && typeof metadata['title'] === 'string' ? metadata['title'] : undefined;
  const heading = /^#\s+(.+?)\s*#*\s*$/m.exec(body)?.[1];
  const title = fmTitle ?? heading;
  // Only titles with markup characters pay for loading the Markdown parser.
  const plain =
    title !== undefined && /[<>&*_`[\]!\\]/.test(title)
      ? (await import('./plain-title.ts')).toPlainTitle(title)
      : title?.trim();
  return { title: plain || undefined, body, contentType: 'text/markdown', metadata };
}

/** Dates in YAML become ISO strings, so metadata always survives JSON. */
function toJsonSafe(value: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
}
