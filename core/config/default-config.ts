// The built-in configuration used when no config file exists: index the Markdown and text files under
// the working directory, skipping dependency and VCS folders, into .kbctx/kbctx.sqlite.
export const DEFAULT_CONFIG_TOML = `
[db]
path = ".kbctx/kbctx.sqlite"

[connectors.filesystem.local]
root = "."
include_globs = ["**/*.md", "**/*.markdown", "**/*.mdx", "**/*.txt", "**/*.rst", "**/*.adoc"]
exclude_globs = ["**/node_modules/**", "**/.git/**", "**/.kbctx/**", "**/dist/**", "**/build/**", "**/target/**", "**/.venv/**"]
`;
