// The examples apply as they are to a cluster that has only the CRDs: every namespace they put an object in is
// created by the example itself (the folder's files applied in the order of its README).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { parseAllDocuments } from 'yaml';

const examples = new URL('../../examples/', import.meta.url).pathname;

interface Document {
  readonly kind?: string;
  readonly metadata?: { readonly name?: string; readonly namespace?: string };
}

const folders = readdirSync(examples, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);

function documentsOf(folder: string): Document[] {
  return readdirSync(join(examples, folder))
    .filter((file) => file.endsWith('.yaml'))
    .flatMap((file) => parseAllDocuments(readFileSync(join(examples, folder, file), 'utf8')).map((document) => document.toJS() as Document));
}

describe('examples', () => {
  it.each(folders.filter((folder) => documentsOf(folder).length > 0))('%s creates every namespace it puts an object in', (folder) => {
    const documents = documentsOf(folder);
    const created = new Set(documents.filter((document) => document.kind === 'Namespace').map((document) => document.metadata?.name));
    const used = [...new Set(documents.flatMap((document) => (document.metadata?.namespace === undefined ? [] : [document.metadata.namespace])))];
    expect(used.filter((namespace) => !created.has(namespace))).toEqual([]);
  });

  it('the APIKey example creates the enforcement namespace its Secrets go to, by default kuadrant', () => {
    expect(documentsOf('apikey').some((document) => document.kind === 'Namespace' && document.metadata?.name === 'kuadrant')).toBe(true);
  });
});
