// Host module `base64`: standard alphabet with padding; decode accepts the URL-safe alphabet too.
// Strings cross into Lua as UTF-8 text, so decoded bytes are read as UTF-8.
export function base64Encode(text: unknown): string {
  if (typeof text !== 'string') throw new Error('base64.encode: expected a string');
  return Buffer.from(text, 'utf8').toString('base64');
}

export function base64Decode(text: unknown): string {
  if (typeof text !== 'string') throw new Error('base64.decode: expected a string');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text.trim())) throw new Error('base64.decode: not valid base64');
  return Buffer.from(text.trim(), 'base64').toString('utf8');
}
