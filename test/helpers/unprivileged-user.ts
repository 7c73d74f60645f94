// Tests that need permissions to bite (chmod 000, PostgreSQL's refusal of root) run a child process as
// an unprivileged user when the tests themselves run as root: root ignores file permissions.
import { chownSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface UserIds {
  uid: number;
  gid: number;
}

/** Null unless we are root; then the first of `names` that exists in /etc/passwd (throws when none does). */
export function unprivilegedUser(names: readonly string[] = ['nobody']): UserIds | null {
  if (process.getuid?.() !== 0) return null;
  const passwd = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .map((line) => line.split(':'));
  for (const name of names) {
    const entry = passwd.find((fields) => fields[0] === name);
    if (entry) return { uid: Number(entry[2]), gid: Number(entry[3]) };
  }
  throw new Error(`running as root, and none of the users ${names.join(', ')} exists to run the child process as`);
}

/** Gives `dir` and everything under it to `user` (the tree the CLI run as that user must write). */
export function chownTree(dir: string, user: UserIds): void {
  chownSync(dir, user.uid, user.gid);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) chownTree(full, user);
    else chownSync(full, user.uid, user.gid);
  }
}
