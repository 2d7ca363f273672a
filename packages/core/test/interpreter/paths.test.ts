import { describe, expect, it } from '@jest/globals';
import { fieldSelector, labelSelector } from '../../src/interpreter/kubernetes/paths.js';

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
