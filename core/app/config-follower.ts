// How the distribution adjusts a loaded config before the host uses it: registry/ hands in
// `followOverrides` (enabled registry extensions run the winning registry's copy) when its entry
// points import it, as they hand in the bundled plugin set. The kernel knows no registry.
import type { Config } from '../config/types.ts';

let follower: (config: Config) => Config = (config) => config;

export function setConfigFollower(follow: (config: Config) => Config): void {
  follower = follow;
}

/** `config` as the distribution's follower leaves it (the same object when nothing moves). */
export const followConfig = (config: Config): Config => follower(config);
