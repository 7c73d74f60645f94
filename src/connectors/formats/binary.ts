// Binary sniffing: a NUL byte in the first 8 KiB means "not text" (git uses the same rule).
export function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, 8192);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}
