import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';

/** A TypeScript block of a Markdown file, with what it needs and does not show. */
export interface Snippet {
  /** "docs/architecture.md:112": where the block starts. */
  readonly where: string;
  /** Declarations put before the code (an HTML comment `<!-- prelude ... -->` right above the block). */
  readonly prelude: string;
  readonly code: string;
  /** "```ts run": the block is executed too, not only compiled. */
  readonly run: boolean;
}

/** The Markdown files whose code people copy: docs/, the README and the packages' READMEs. */
export function documentationFiles(root: string): string[] {
  const docs = readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => join(root, 'docs', name));
  const packages = readdirSync(join(root, 'packages')).map((name) => join(root, 'packages', name, 'README.md')).filter((path) => existsSync(path));
  return [join(root, 'README.md'), ...docs, ...packages];
}

const BLOCK = /(?:<!-- prelude\n([\s\S]*?)-->\s*\n)?```(?:ts|typescript)( run)?\n([\s\S]*?)```/g;

/** The TypeScript blocks of a Markdown file. */
export function snippetsOf(root: string, path: string): Snippet[] {
  const text = readFileSync(path, 'utf8');
  return [...text.matchAll(BLOCK)].map((match) => ({
    where: `${relative(root, path)}:${String(text.slice(0, match.index).split('\n').length + (match[1] === undefined ? 0 : match[1].split('\n').length + 1))}`,
    prelude: match[1] ?? '',
    code: match[3] ?? '',
    run: match[2] !== undefined,
  }));
}
