// `kbctx extension init <name>`: writes a typed extension module (a tool, an agent and a connector
// type) and its node:test file under extensions/ in the working directory. Never overwrites a file.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { badRequest, KbctxError } from '../../core/api/plugin.ts';

export interface ExtensionScaffold {
  /** Written files, relative to the working directory. */
  files: string[];
  /** The `[extensions]` entry, with the module path relative to the config root (the project, ADR 0114). */
  configEntry: string;
  testCommand: string;
}

export function scaffoldExtension(name: string, cwd: string, projectDir: string): ExtensionScaffold {
  if (!/^[a-z][a-z0-9_-]{0,63}$/.test(name))
    throw badRequest(
      `invalid extension name '${name}': use lower-case letters, digits, '-' and '_', starting with a letter`,
    );
  const moduleRel = `extensions/${name}.mjs`;
  const testRel = `extensions/${name}.test.mjs`;
  for (const rel of [moduleRel, testRel]) {
    if (existsSync(path.resolve(cwd, rel)))
      throw new KbctxError('conflict', `${rel} already exists; pick another name or edit it`);
  }
  const fromProject = path.relative(projectDir, path.resolve(cwd, moduleRel)).split(path.sep).join('/');
  const modulePath = fromProject.startsWith('.') ? fromProject : `./${fromProject}`;
  const values: Record<string, string> = {
    name,
    path: modulePath,
    file: `${name}.mjs`,
    test: testRel,
  };
  const fill = (template: string): string => template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => values[key] ?? '');
  mkdirSync(path.resolve(cwd, 'extensions'), { recursive: true });
  writeFileSync(
    path.resolve(cwd, moduleRel),
    fill(readFileSync(new URL('./templates/extension.mjs.tmpl', import.meta.url), 'utf8')),
  );
  writeFileSync(
    path.resolve(cwd, testRel),
    fill(readFileSync(new URL('./templates/extension.test.mjs.tmpl', import.meta.url), 'utf8')),
  );
  return {
    files: [moduleRel, testRel],
    configEntry: `[extensions]\nmodules = ["${modulePath}"]\n`,
    testCommand: `node --test ${testRel}`,
  };
}
