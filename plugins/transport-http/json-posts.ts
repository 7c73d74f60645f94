// Every POST must say it is JSON (ADR 0140). An HTML form or a "simple" cross-origin fetch (no body, or
// text/plain, form or multipart bodies) is sent without a CORS preflight, so a page on any loopback
// origin could call a tool with side effects or start an agent; a JSON content type needs a preflight,
// which the CORS policy answers. A body-less POST without a Content-Type is refused too.
import { KbctxError } from '../../core/api/plugin.ts';

const JSON_TYPE = /^application\/(?:[^;\s]+\+)?json\s*(?:;|$)/i;

/** Throws 415 unless a POST carries `Content-Type: application/json` (or `application/<x>+json`). */
export function requireJsonPost(method: string, url: string, contentType: string | undefined): void {
  if (method !== 'POST' || (contentType !== undefined && JSON_TYPE.test(contentType))) return;
  const got = contentType === undefined ? 'none' : JSON.stringify(contentType.slice(0, 100));
  throw new KbctxError(
    'unsupported_media_type',
    `POST ${url.split('?', 1)[0]!.slice(0, 200)} needs Content-Type: application/json (a body such as {}), got ${got}: a web page cannot send that without a CORS preflight`,
  );
}
