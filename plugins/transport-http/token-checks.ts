// `kbctx doctor` lines for the server's tokens (ADR 0223): each token whose secret comes from a variable, and
// whether that variable is set (a server would refuse to start without it). Names the variable, never its value.
import type { Config, DoctorCheck } from '../../core/api/plugin.ts';
import { serverConfigOf } from './server-section.ts';
import { tokenVariables } from './token-set.ts';

export function tokenChecks(config: Config, env: NodeJS.ProcessEnv): DoctorCheck[] {
  const server = serverConfigOf(config);
  const hashed = server.tokens.filter((t) => 'sha256' in t.secret).map((t) => t.name);
  const checks = tokenVariables(server).map(({ token, variable }): DoctorCheck => {
    const set = Boolean(env[variable]);
    return {
      name: 'tokens',
      area: 'server',
      ok: set,
      status: set ? 'ok' : 'fail',
      detail: `token '${token}': ${variable} is ${set ? 'set' : 'not set'}`,
      fix: set ? undefined : `export ${variable}=<a long random token> before kbctx serve`,
    };
  });
  if (hashed.length > 0)
    checks.push({
      name: 'tokens',
      area: 'server',
      ok: true,
      status: 'ok',
      detail: `hashed token(s): ${hashed.join(', ')}`,
    });
  return checks;
}
