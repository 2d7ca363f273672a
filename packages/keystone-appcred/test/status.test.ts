import { describe, expect, it } from '@jest/globals';
import { readStatus } from '../src/decode.js';
import { observe } from '../src/observe.js';
import { appCredType } from '../src/api.js';
import { NS, baseSpec, cr, config, credentials, reconcileCr, setup } from './harness.js';

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

describe('a pending credential name written by someone else', () => {
  // Only a name this CR could have drawn is revoked and reused: another would revoke by name a credential of
  // another CR of the same user, or be sent to Keystone to create (one with a 4-byte character it cannot store).
  it.each([['another CR\'s credential', 'ac-nova-'], ['a name Keystone cannot store', '\u{1F600}']])('is neither revoked nor created: %s', async (_what, prefix) => {
    const { world, clock } = setup();
    world.put(appCredType, { metadata: { name: 'ac-nova', namespace: NS }, spec: baseSpec });
    await reconcileCr(world, clock, 1, config, 'ac-nova');
    const nova = cr(world, 'ac-nova').status;
    const foreign = prefix === 'ac-nova-' ? credentials(world).find((c) => c.id === nova.acID)?.name ?? '' : prefix;
    const stored = world.get({ type: appCredType, namespace: NS, name: 'ac-barbican' });
    if (stored === undefined) throw new Error('ac-barbican is gone');
    world.put(appCredType, { ...stored, status: { pendingACName: foreign } });

    await reconcileCr(world, clock, 2);
    await reconcileCr(world, clock, 3);
    const barbican = cr(world).status;
    expect(credentials(world).map((c) => c.id).sort()).toEqual([nova.acID, barbican.acID].sort());
    expect(credentials(world).map((c) => c.name)).not.toContain(prefix);
    expect(barbican.pendingACName).toBeUndefined();
  });
});
