// Registers the document formats beyond Markdown and plain text (HTML, PDF, DOCX, PPTX, XLSX) with
// extract.ts. Each parser module, and the package behind it, is imported only when a file of its type
// is extracted, so commands that never read such a file never load them. Idempotent.
import { registerExtractor } from './extract.ts';

let registered = false;

export function registerDocumentFormats(): void {
  if (registered) return;
  registered = true;
  registerExtractor(['.html', '.htm', '.xhtml'], async (bytes) => (await import('./html.ts')).extractHtml(bytes));
  registerExtractor(['.pdf'], async (bytes) => (await import('./pdf.ts')).extractPdf(bytes));
  registerExtractor(['.docx'], async (bytes) => (await import('./office/docx.ts')).extractDocx(bytes));
  registerExtractor(['.pptx'], async (bytes) => (await import('./office/pptx.ts')).extractPptx(bytes));
  registerExtractor(['.xlsx'], async (bytes) => (await import('./office/xlsx.ts')).extractXlsx(bytes));
}
