import { describe, expect, it } from '@jest/globals';
import { fieldSelector, labelSelector, resourcePath } from '../../src/apis/kubernetes/io/paths.js';

describe('selectors', () => {
  it('field selector: a name, extra fields, both ANDed, or none', () => {
    expect(fieldSelector('db', undefined)).toBe('metadata.name=db');
    expect(fieldSelector(undefined, 'type=Opaque')).toBe('type=Opaque');
    expect(fieldSelector('db', 'type=Opaque')).toBe('metadata.name=db,type=Opaque');
    expect(fieldSelector(undefined, undefined)).toBeUndefined();
    expect(fieldSelector(undefined, '')).toBeUndefined();
  });

  it('label selector: equality terms, none when empty', () => {
    expect(labelSelector({ a: '1', b: '2' })).toBe('a=1,b=2');
    expect(labelSelector({})).toBeUndefined();
    expect(labelSelector(undefined)).toBeUndefined();
  });
});

describe('resource paths', () => {
  const secrets = { group: '', version: 'v1', kind: 'Secret', plural: 'secrets', namespaced: true };

  it('encode names and namespaces as one segment each', () => {
    expect(resourcePath(secrets, 'team-a', 'a/b', 'status')).toBe('/api/v1/namespaces/team-a/secrets/a%2Fb/status');
  });

  it.each(['.', '..'])('refuse %p, which URL normalisation would turn into another resource', (name) => {
    expect(() => resourcePath(secrets, 'team-a', name)).toThrow(expect.objectContaining({ reason: 'InvalidName', retryable: false }));
    expect(() => resourcePath(secrets, name, 'x')).toThrow(`"${name}" is not an object name`);
  });
});
