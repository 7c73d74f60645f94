// Runs an s3rver (fake S3) for tests as a child process: `node --openssl-legacy-provider s3rver-child.js
// <dir> <bucket>...`. Prints `{"port":N}` once listening on 127.0.0.1 (on S3RVER_PORT when set, to restart a
// server where it was); exits when stdin closes.
import { unlink } from 'node:fs/promises';
import { setTimeout } from 'node:timers';
import S3rver from 's3rver';

const [dir, ...buckets] = process.argv.slice(2);
const server = new S3rver({
  address: '127.0.0.1',
  port: Number(process.env['S3RVER_PORT'] ?? 0),
  directory: dir,
  silent: true,
  configureBuckets: buckets.map((name) => ({ name })),
});
// s3rver's deleteObject removes a key's emptied parent folders, racing a PUT under the same prefix that has made the
// folder but not yet opened its file: the PUT's write stream fails with ENOENT and, unhandled, ends the server
// (seen in CI with the lease locks' contenders). Real S3 has no folders; keep them: listings read files only.
async function removeFile(file) {
  try {
    await unlink(file);
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
}
server.store.deleteObject = async (bucket, key) => {
  const kinds = ['object', 'object.md5', 'metadata.json'];
  await Promise.all(kinds.map((kind) => removeFile(server.store.getResourcePath(bucket, key, kind))));
};
const address = await server.run();
process.stdout.write(`${JSON.stringify({ port: address.port })}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  void server.close().finally(() => process.exit(0));
  // close() waits for keep-alive connections that clients (a replica polling) never let go idle: exit anyway.
  setTimeout(() => process.exit(0), 500).unref();
});
