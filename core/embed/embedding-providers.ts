// The `[embedding] provider` names the loaded plugins answer for (every createEmbedder.for tap: the
// bundled local, openai, ollama and transformers, and any plugin's), for errors that say what to set.
import type { Kernel } from '../kernel.ts';

export function embeddingProviders(kernel: Pick<Kernel, 'tappedKeys'>): string[] {
  return [...kernel.tappedKeys('createEmbedder').keys()].sort();
}

/** `"local", "ollama" or "openai"`: the providers as a phrase for an error message. */
export function providerChoices(providers: readonly string[]): string {
  const quoted = providers.map((p) => `"${p}"`);
  if (quoted.length === 0) return 'one an embedder plugin provides (none is loaded)';
  return quoted.length === 1 ? quoted[0]! : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}
