// Every TypeScript block in the documentation compiles against the packages as they are, and a block marked
// "```ts run" also runs: code people copy from the docs cannot rot unnoticed.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { documentationFiles, snippetsOf, type Snippet } from './doc-snippets.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
// Inside the repository, so the snippets resolve the workspace packages as a user's code resolves them.
const folder = join(root, 'test', 'repo', '.snippets');
const snippets = documentationFiles(root).flatMap((path) => snippetsOf(root, path));
const fileOf = (index: number): string => join(folder, `snippet-${String(index)}.ts`);

let diagnostics: Map<string, string[]>;

beforeAll(() => {
  mkdirSync(folder, { recursive: true });
  snippets.forEach((snippet, index) => { writeFileSync(fileOf(index), `${snippet.prelude}\n${snippet.code}\nexport {};\n`); });
  const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.check.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  if (config === undefined) throw new Error('tsconfig.check.json cannot be read');
  const program = ts.createProgram(snippets.map((_, index) => fileOf(index)), { ...config.options, noEmit: true });
  diagnostics = new Map(snippets.map((_, index) => {
    const source = program.getSourceFile(fileOf(index));
    const found = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
    return [fileOf(index), found.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))];
  }));
}, 120_000);

afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

describe('TypeScript in the documentation', () => {
  it('has blocks to check', () => {
    expect(snippets.length).toBeGreaterThan(3);
  });

  it.each(snippets.map((snippet, index): [string, Snippet, number] => [snippet.where, snippet, index]))('%s compiles', (_where, _snippet, index) => {
    expect(diagnostics.get(fileOf(index))).toEqual([]);
  });

  const runnable = snippets.flatMap((snippet, index): [string, number][] => (snippet.run ? [[snippet.where, index]] : []));
  it('has a block that runs', () => {
    expect(runnable.length).toBeGreaterThan(0);
  });

  it.each(runnable)('%s runs', async (_where, index) => {
    await expect(import(fileOf(index))).resolves.toBeDefined();
  });
});
