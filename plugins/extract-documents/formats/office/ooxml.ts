// Reading Office Open XML packages (DOCX, PPTX, XLSX): the zip (fflate), its parts as text, part
// relationships, the document title, and a streaming XML walk (htmlparser2 in XML mode).
// Guards against zip bombs (parts are only inflated up to MAX_UNZIPPED_BYTES in total) and against
// hostile nesting (MAX_XML_DEPTH).
import { strFromU8, unzipSync } from 'fflate';
import { Parser } from 'htmlparser2';
import path from 'node:path';

const MAX_UNZIPPED_BYTES = 256 * 1024 * 1024;
export const MAX_XML_DEPTH = 512;

export interface OfficePackage {
  /** A part's text (UTF-8), or undefined when the package has no such part. */
  part(name: string): string | undefined;
  /** The relationships of a part: id → target part name (resolved to a package path). */
  rels(partName: string): Map<string, string>;
  /** dc:title from docProps/core.xml, if set. */
  title(): string | undefined;
}

export function openPackage(bytes: Uint8Array, wanted: (name: string) => boolean): OfficePackage {
  let total = 0;
  const files = unzipSync(bytes, {
    filter: (file) => {
      const keep = wanted(file.name) || file.name.endsWith('.rels') || file.name === 'docProps/core.xml';
      if (keep && (total += file.originalSize) > MAX_UNZIPPED_BYTES)
        throw new Error(`unpacks to over ${MAX_UNZIPPED_BYTES} bytes`);
      return keep;
    },
  });
  const part = (name: string): string | undefined => {
    const data = files[name];
    return data ? strFromU8(data) : undefined;
  };
  return {
    part,
    rels(partName) {
      const dir = path.posix.dirname(partName);
      const relsXml = part(path.posix.join(dir, '_rels', `${path.posix.basename(partName)}.rels`));
      const map = new Map<string, string>();
      if (!relsXml) return map;
      walkXml(relsXml, {
        open(name, attrs) {
          const id = attrs['Id'];
          const target = attrs['Target'];
          if (name === 'Relationship' && id && target && attrs['TargetMode'] !== 'External') {
            map.set(id, target.startsWith('/') ? target.slice(1) : path.posix.normalize(path.posix.join(dir, target)));
          }
        },
      });
      return map;
    },
    title() {
      const core = part('docProps/core.xml');
      if (!core) return undefined;
      let inTitle = false;
      let title = '';
      walkXml(core, {
        open: (name) => void (inTitle = name === 'dc:title'),
        text: (t) => void (inTitle && (title += t)),
        close: () => void (inTitle = false),
      });
      return title.trim() || undefined;
    },
  };
}

export interface XmlHandlers {
  open?(name: string, attrs: Record<string, string>): void;
  text?(text: string): void;
  close?(name: string): void;
}

/**
 * Streams an XML document's elements (qualified names as written, e.g. `w:p`) and decoded text.
 * Throws past MAX_XML_DEPTH nested elements: the parser's cost grows with depth × elements (minutes for
 * a hostile 100,000-level part), while Office itself writes a few dozen levels; the file is then
 * skipped as extract_failed with this reason, never indexed empty or half.
 */
export function walkXml(xml: string, handlers: XmlHandlers): void {
  let depth = 0;
  const parser = new Parser(
    {
      onopentag: (name, attrs) => {
        if (++depth > MAX_XML_DEPTH) throw new Error(`its XML nests elements deeper than ${MAX_XML_DEPTH} levels`);
        handlers.open?.(name, attrs);
      },
      ontext: (text) => handlers.text?.(text),
      onclosetag: (name) => {
        depth--;
        handlers.close?.(name);
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(xml);
  parser.end();
}

/** Numeric order for names like `slide10.xml` (so slide10 follows slide9). */
export function byNumber(a: string, b: string): number {
  const n = (s: string): number => Number(/(\d+)\.xml$/.exec(s)?.[1] ?? 0);
  return n(a) - n(b) || (a < b ? -1 : a > b ? 1 : 0);
}
