// The environment every git call gets: no terminal prompts (credentials come from helpers/agents),
// stable (English) messages, no optional locks.
export const GIT_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  GIT_TERMINAL_PROMPT: '0',
  LC_ALL: 'C',
  GIT_OPTIONAL_LOCKS: '0',
};
