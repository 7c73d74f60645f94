// A Markdown heading or front-matter title as plain text: inline markup parsed with marked's lexer
// (not regexes), HTML tags and images dropped (badges, logos), link and emphasis text kept, entities
// decoded. `# YAML <a href…><img…></a>` becomes `YAML`.
import { decodeHTML } from 'entities';
import { Lexer, type Token } from 'marked';

export function toPlainTitle(markdown: string): string {
  const tokens = Lexer.lexInline(markdown);
  const text = collapse(inlineText(tokens, false));
  // A title made only of images keeps their alt text rather than becoming empty.
  return text !== '' ? text : collapse(inlineText(tokens, true));
}

function inlineText(tokens: readonly Token[], withImages: boolean): string {
  return tokens
    .map((t): string => {
      switch (t.type) {
        case 'html':
          return ' '; // a tag; text between tags is a token of its own
        case 'image':
          return withImages ? decodeHTML(t.text) : ' ';
        case 'br':
          return ' ';
        default:
          if ('tokens' in t && Array.isArray(t.tokens) && t.tokens.length > 0)
            return inlineText(t.tokens as Token[], withImages);
          return decodeHTML(typeof (t as { text?: unknown }).text === 'string' ? (t as { text: string }).text : t.raw);
      }
    })
    .join('');
}

const collapse = (s: string): string => s.replace(/\s+/g, ' ').trim();
