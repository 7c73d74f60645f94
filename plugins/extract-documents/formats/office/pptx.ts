// PPTX → text: slides in presentation order, one paragraph per <a:p>, slide titles as `## ` headings,
// a blank line between slides. Title from the core properties or the first slide's title.
import type { Extracted } from '../../../extract-text/api.ts';
import { byNumber, openPackage, walkXml } from './ooxml.ts';

const SLIDE = /^ppt\/slides\/slide\d+\.xml$/;

export function extractPptx(bytes: Uint8Array): Extracted {
  const pkg = openPackage(bytes, (name) => name === 'ppt/presentation.xml' || SLIDE.test(name));
  const presentation = pkg.part('ppt/presentation.xml');
  if (presentation === undefined) throw new Error('not a PowerPoint presentation (no ppt/presentation.xml)');
  const slides = slideOrder(presentation, pkg.rels('ppt/presentation.xml'));
  const texts: string[] = [];
  let firstTitle: string | undefined;
  for (const name of slides) {
    const xml = pkg.part(name);
    if (xml === undefined) continue;
    const { paragraphs, title } = slideText(xml);
    firstTitle ??= title;
    if (paragraphs.length > 0) texts.push(paragraphs.join('\n\n'));
  }
  return {
    title: pkg.title() ?? firstTitle,
    body: texts.join('\n\n'),
    contentType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    metadata: { slides: slides.length },
  };
}

/** Slide part names in the order of <p:sldIdLst>; falls back to file-name order. */
function slideOrder(presentation: string, rels: Map<string, string>): string[] {
  const ordered: string[] = [];
  walkXml(presentation, {
    open(name, attrs) {
      const target = name === 'p:sldId' ? rels.get(attrs['r:id'] ?? '') : undefined;
      if (target) ordered.push(target);
    },
  });
  return ordered.length > 0 ? ordered : [...rels.values()].filter((t) => SLIDE.test(t)).sort(byNumber);
}

function slideText(xml: string): { paragraphs: string[]; title: string | undefined } {
  const paragraphs: string[] = [];
  let title: string | undefined;
  let text = '';
  let inText = false;
  let inTitleShape = false;
  walkXml(xml, {
    open(name, attrs) {
      if (name === 'p:sp') inTitleShape = false;
      else if (name === 'p:ph') inTitleShape = attrs['type'] === 'title' || attrs['type'] === 'ctrTitle';
      else if (name === 'a:p') text = '';
      else if (name === 'a:t') inText = true;
      else if (name === 'a:br') text += '\n';
    },
    text(t) {
      if (inText) text += t;
    },
    close(name) {
      if (name === 'a:t') inText = false;
      else if (name === 'a:p') {
        const clean = text.trim();
        if (!clean) return;
        if (inTitleShape) title ??= clean;
        paragraphs.push(inTitleShape ? `## ${clean}` : clean);
      }
    },
  });
  return { paragraphs, title };
}
