// Filesystem connector roots that lie outside the project folder (the config root, ADR 0114): a
// relative root such as "../kb" that leads out of the project indexes an unrelated folder without a
// word, so `sync` and `doctor` warn about each (the cli's, through this plugin's api.ts). Pure over the config.
import path from 'node:path';
import type { Config } from '../../core/api/plugin.ts';
import { filesystemConnectorsOf } from './config-section.ts';

export interface OutsideRoot {
  /** `filesystem:<name>`. */
  connector: string;
  root: string;
}

/** None for the built-in default config (no project to be outside of). */
export function rootsOutsideProject(config: Config): OutsideRoot[] {
  if (config.file === null) return [];
  return Object.entries(filesystemConnectorsOf(config))
    .filter(([, c]) => {
      const rel = path.relative(path.resolve(config.baseDir), path.resolve(c.root));
      return rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel);
    })
    .map(([name, c]) => ({ connector: `filesystem:${name}`, root: c.root }));
}

/** The warning's words, shared by `sync` and `doctor`. */
export const outsideRootMessage = (o: OutsideRoot, project: string): string =>
  `${o.connector} reads ${o.root}, outside the project folder ${project}`;

export const OUTSIDE_ROOT_FIX =
  "relative roots resolve against the project folder (the one holding config/), not the config file's folder: " +
  'check that this is the folder you mean, else correct root';
