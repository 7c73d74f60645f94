// The document formats this plugin extracts, by extension (the `extract.for` key), each parser module
// (and the package behind it) imported only when a file of its type is extracted.
import type { ExtractedText } from '../../core/api/plugin.ts';

type Parser = (bytes: Uint8Array) => Promise<{
  title?: string | undefined;
  body: string;
  contentType: string;
  metadata?: Record<string, unknown> | undefined;
}>;

const html: Parser = async (bytes) => (await import('./formats/html.ts')).extractHtml(bytes);
const pdf: Parser = async (bytes) => (await import('./formats/pdf.ts')).extractPdf(bytes);
const docx: Parser = async (bytes) => (await import('./formats/office/docx.ts')).extractDocx(bytes);
const pptx: Parser = async (bytes) => (await import('./formats/office/pptx.ts')).extractPptx(bytes);
const xlsx: Parser = async (bytes) => (await import('./formats/office/xlsx.ts')).extractXlsx(bytes);

export const FORMATS: Readonly<Record<string, Parser>> = Object.freeze({
  html,
  htm: html,
  xhtml: html,
  pdf,
  docx,
  pptx,
  xlsx,
});

export async function extractWith(parser: Parser, bytes: Uint8Array): Promise<ExtractedText> {
  const { body, ...rest } = await parser(bytes);
  return { text: body, ...rest };
}
