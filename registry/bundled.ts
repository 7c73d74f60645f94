// The ordered first-party plugin set that the `bundled` entry of `plugins` stands for. Each plugin's
// index is small: heavy code is imported when its hooks are first called.
import type { Plugin } from '../core/plugin.ts';
import toolsBuiltin from '../plugins/tools-builtin/index.ts';

export const BUNDLED_PLUGINS: readonly Plugin[] = Object.freeze([toolsBuiltin as Plugin]);
