// The view toolkit in one import: htm templates bound to Preact, and the hooks the views use.
import { h, render } from '../vendor/preact.js';
import htm from '../vendor/htm.js';

export { render };
export { useCallback, useEffect, useMemo, useRef, useState } from '../vendor/hooks.js';
export const html = htm.bind(h);
