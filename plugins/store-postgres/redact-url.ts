// A PostgreSQL URL without its password, for logs, `kbctx stats` and Store.path (the store's own since ADR 0232).

export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '';
    return parsed.toString().replace(/:@/, '@');
  } catch {
    return 'postgres://(unparsable url)';
  }
}
