// Whether a process id is running, for lock files that name their holder (the local stores' sync locks, the models
// plugin's folder lock): signal 0 checks without signalling; EPERM means it runs under another user.
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
