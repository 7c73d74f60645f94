// The built-in configuration used when no config file exists: index the Markdown and text files under
// the working directory, skipping dependency and VCS folders, into .lore/lore.sqlite.
export const DEFAULT_CONFIG_TOML = `
[db]
path = ".lore/lore.sqlite"

[connectors.filesystem.local]
root = "."
include_globs = ["**/*.md", "**/*.markdown", "**/*.mdx", "**/*.txt", "**/*.rst", "**/*.adoc"]
exclude_globs = ["**/node_modules/**", "**/.git/**", "**/.lore/**", "**/dist/**", "**/build/**", "**/target/**", "**/.venv/**"]
`;
