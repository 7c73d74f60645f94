// A database URL without its password, for logs, `kbctx stats` and Store.path.

export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '';
    return parsed.toString().replace(/:@/, '@');
  } catch {
    return 'postgres://(unparsable url)';
  }
}
