// Starting and stopping a node:http server: listen with errors as KbctxErrors (address in use,
// permission), and a graceful close that finishes in-flight requests, then drops what remains.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KbctxError } from '../../core/domain/errors.ts';

export function listen(server: Server, host: string, port: number): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      const why = error.code === 'EADDRINUSE' ? 'the address is already in use' : error.code === 'EACCES' ? 'permission denied' : error.message;
      reject(new KbctxError('conflict', `cannot listen on ${host}:${port}: ${why} (set [server].bind or --bind, e.g. --bind 127.0.0.1:0)`, { cause: error }));
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve(server.address() as AddressInfo);
    });
  });
}

/** Stops accepting connections, lets in-flight requests finish for up to `graceMs`, then closes the rest. */
export function closeGracefully(server: Server, graceMs = 5_000): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.closeAllConnections(), graceMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}
