// A raw TCP client for server time-out tests: opens a socket, lets the test write (or not), and
// resolves when the server closes it, with what it sent; rejects when it stays open past a bound.
import { connect, type Socket } from 'node:net';

export interface Closed {
  afterMs: number;
  received: string;
}

/** Resolves when the server on 127.0.0.1:`port` closes the socket; rejects after `boundMs`. */
export function untilServerCloses(port: number, use: (socket: Socket) => void, boundMs: number): Promise<Closed> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const started = Date.now();
    let received = '';
    socket.setEncoding('utf8').on('data', (d: string) => (received += d));
    socket.on('error', () => {}); // a reset after the server's 408 still counts as closed
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new Error(
          `the server kept the connection open past ${boundMs} ms; received ${JSON.stringify(received.slice(0, 80))}`,
        ),
      );
    }, boundMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve({ afterMs: Date.now() - started, received });
    });
    socket.once('connect', () => use(socket));
  });
}

/** Sends the head of a POST announcing 1000 body bytes, then one byte every 100 ms until the server closes. */
export function trickleBody(socket: Socket): void {
  socket.write(
    'POST /tools/search HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n',
  );
  const trickle = setInterval(() => socket.writable && socket.write(' '), 100);
  socket.once('close', () => clearInterval(trickle));
}

/** One keep-alive request; the connection is then left idle. */
export function oneRequestThenIdle(socket: Socket): void {
  socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
}
