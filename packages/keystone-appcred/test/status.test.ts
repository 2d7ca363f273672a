import { describe, expect, it } from '@jest/globals';
import { readStatus } from '../src/decode.js';
import { observe } from '../src/observe.js';
import { cr, config, setup } from './harness.js';

describe('a status written by someone else', () => {
  // The Secrets a status names are read by name and then labelled: ".." reads the namespace itself (its
  // path), and a Secret named like the namespace would be labelled as the service's and later revoked.
  it.each([['..'], ['.'], ['a/b'], ['Upper'], ['']])('names no Secret with %j', (name) => {
    expect(readStatus({ secretName: name, previousSecretName: name, acID: 'id' })).toEqual({ acID: 'id' });
  });

  it('keeps the Secret names that are object names, and nothing is read for the others', () => {
    expect(readStatus({ secretName: 'ac-barbican-1a2b3-secret', previousSecretName: 'ac.barbican' })).toEqual({ secretName: 'ac-barbican-1a2b3-secret', previousSecretName: 'ac.barbican' });
    const { world } = setup(undefined, { secretName: '..', previousSecretName: 'x/y' });
    const queries = observe(cr(world), config);
    expect([queries.currentSecret, queries.previousSecret]).toEqual([undefined, undefined]);
  });
});
