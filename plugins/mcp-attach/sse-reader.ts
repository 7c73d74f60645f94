// A minimal text/event-stream reader (WHATWG "event stream interpretation"): feeds chunks, calls back with
// each event's data. Only `data:` matters to MCP; `id`, `event` and `retry` are read past, comments skipped.

export class SseReader {
  private buffer = '';
  private data: string[] = [];
  private readonly onData: (data: string) => void;

  constructor(onData: (data: string) => void) {
    this.onData = onData;
  }

  /** Appends a decoded chunk; dispatches every complete event in it. */
  push(chunk: string): void {
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = this.buffer.slice(0, end);
      const eolLength = this.buffer.startsWith('\r\n', end) ? 2 : 1;
      // A lone \r at the end of the chunk may be the first half of \r\n: wait for the next chunk.
      if (eolLength === 1 && this.buffer[end] === '\r' && end === this.buffer.length - 1) return;
      this.buffer = this.buffer.slice(end + eolLength);
      this.line(line);
    }
  }

  private line(line: string): void {
    if (line === '') {
      if (this.data.length > 0) this.onData(this.data.join('\n'));
      this.data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
  }
}
