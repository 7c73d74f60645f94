// Saves and loads a PostingsIndex as one file beside the database. Written to a temporary name and
// renamed into place, so a reader (or a process killed mid-write) sees a whole file or the old one; a
// file whose size or end marker does not match is treated as absent.
import type { Postings } from './postings-topk.ts';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { PostingsIndex } from './postings-index.ts';

const MAGIC = 'KBCTXKW1';
const END = 'END!';

interface Header {
  epoch: string;
  seq: number;
  rows: number;
  terms: number;
  postings: number;
  termBytes: number;
}

const pad4 = (n: number): number => (n + 3) & ~3;

export function savePostings(file: string, index: PostingsIndex): void {
  const names: string[] = [];
  const lists: Postings[] = [];
  for (const [term, postings] of index.terms()) {
    names.push(term);
    lists.push(postings);
  }
  const total = lists.reduce((n, p) => n + p.ids.length, 0);
  const { lengths, groups } = index.arrays();
  const termJson = Buffer.from(JSON.stringify(names));
  const header: Header = {
    epoch: index.epoch,
    seq: index.seq,
    rows: groups.length,
    terms: names.length,
    postings: total,
    termBytes: termJson.length,
  };
  const headerJson = Buffer.from(JSON.stringify(header));
  const offsets = new Int32Array(names.length + 1);
  const ids = new Int32Array(total);
  const freqs = new Uint16Array(pad4(total * 2) / 2);
  let at = 0;
  lists.forEach((p, i) => {
    ids.set(p.ids, at);
    freqs.set(p.freqs, at);
    at += p.ids.length;
    offsets[i + 1] = at;
  });
  const prefix = Buffer.alloc(pad4(8 + 4 + headerJson.length));
  prefix.write(MAGIC, 0, 'latin1');
  prefix.writeUInt32LE(headerJson.length, 8);
  headerJson.copy(prefix, 12);
  const parts = [
    prefix,
    termJson,
    Buffer.alloc(pad4(termJson.length) - termJson.length),
    offsets,
    ids,
    lengths,
    groups,
    freqs,
    Buffer.from(END, 'latin1'),
  ];
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    writeFileSync(
      temp,
      Buffer.concat(parts.map((p) => (Buffer.isBuffer(p) ? p : Buffer.from(p.buffer, p.byteOffset, p.byteLength)))),
    );
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** The saved index, or null when the file is missing, torn or of another format. */
export function loadPostings(file: string): PostingsIndex | null {
  let raw: Buffer;
  try {
    raw = readFileSync(file);
  } catch {
    return null;
  }
  if (raw.length < 16 || raw.toString('latin1', 0, 8) !== MAGIC || raw.toString('latin1', raw.length - 4) !== END)
    return null;
  // Typed-array views need 4-byte alignment; a pooled buffer may not have it.
  const buffer = raw.byteOffset % 4 === 0 ? raw : Buffer.from(raw);
  try {
    const headerLength = buffer.readUInt32LE(8);
    const header = JSON.parse(buffer.toString('utf8', 12, 12 + headerLength)) as Header;
    let at = pad4(12 + headerLength);
    const names = JSON.parse(buffer.toString('utf8', at, at + header.termBytes)) as string[];
    at += pad4(header.termBytes);
    const ints = (n: number): Int32Array => {
      const view = new Int32Array(buffer.buffer, buffer.byteOffset + at, n);
      at += n * 4;
      return view;
    };
    const offsets = ints(header.terms + 1);
    const ids = ints(header.postings);
    const lengths = ints(header.rows);
    const groups = ints(header.rows);
    const freqs = new Uint16Array(buffer.buffer, buffer.byteOffset + at, header.postings);
    at += pad4(header.postings * 2);
    if (at + 4 !== buffer.length || names.length !== header.terms) return null;
    const terms = new Map<string, Postings>();
    names.forEach((term, i) => {
      const from = offsets[i]!;
      const to = offsets[i + 1]!;
      terms.set(term, { ids: ids.subarray(from, to), freqs: freqs.subarray(from, to) });
    });
    return new PostingsIndex(header.epoch, header.seq, terms, lengths, groups);
  } catch {
    return null;
  }
}
