// Shell completion scripts generated from the command tree, so they list exactly the commands and
// options that exist.
import type { Command } from 'commander';

interface Spec {
  name: string;
  description: string;
  options: string[];
  subcommands: Spec[];
}

function toSpec(cmd: Command): Spec {
  return {
    name: cmd.name(),
    description: cmd.description(),
    options: cmd.options.flatMap((o) => [o.short, o.long].filter((f): f is string => typeof f === 'string')),
    subcommands: cmd.commands.map(toSpec),
  };
}

export function completionScript(program: Command, shell: 'bash' | 'zsh' | 'fish'): string {
  const root = toSpec(program);
  const globals = [...root.options, '--help'];
  if (shell === 'fish') return fish(root, globals);
  const cases = root.subcommands
    .map((c) => {
      const words = [...c.subcommands.map((s) => s.name), ...c.options, ...globals].join(' ');
      return `    ${c.name}) words="${words}" ;;`;
    })
    .join('\n');
  const body = `_kbctx_complete() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" cmd="" words
  local i
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "\${COMP_WORDS[i]}" in -*) ;; *) cmd="\${COMP_WORDS[i]}"; break ;; esac
  done
  case "$cmd" in
${cases}
    *) words="${root.subcommands.map((c) => c.name).join(' ')} ${globals.join(' ')}" ;;
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
`;
  if (shell === 'bash') return `# bash completion for kbctx\n${body}complete -F _kbctx_complete kbctx\n`;
  return (
    `#compdef kbctx\n# zsh completion for kbctx\n` +
    `autoload -U +X bashcompinit && bashcompinit\n${body}complete -F _kbctx_complete kbctx\n`
  );
}

function fish(root: Spec, globals: string[]): string {
  const lines = ['# fish completion for kbctx', 'complete -c kbctx -f'];
  const top = root.subcommands.map((c) => c.name).join(' ');
  for (const c of root.subcommands) {
    lines.push(`complete -c kbctx -n "not __fish_seen_subcommand_from ${top}" -a ${c.name} -d ${quote(c.description)}`);
    for (const s of c.subcommands) {
      lines.push(
        `complete -c kbctx -n "__fish_seen_subcommand_from ${c.name}" -a ${s.name} -d ${quote(s.description)}`,
      );
    }
    for (const o of c.options.filter((o) => o.startsWith('--'))) {
      lines.push(`complete -c kbctx -n "__fish_seen_subcommand_from ${c.name}" -l ${o.slice(2)}`);
    }
  }
  for (const o of globals.filter((o) => o.startsWith('--'))) lines.push(`complete -c kbctx -l ${o.slice(2)}`);
  return `${lines.join('\n')}\n`;
}

const quote = (s: string): string => `'${s.replaceAll("'", "\\'")}'`;
