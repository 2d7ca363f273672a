import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import * as t from 'io-ts';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import { dateTime, decode, integerInRange, kubernetesName, minLengthArray, minLengthString, oneOf, uniqueList, withDefault } from '../../src/model/codec.js';

const Rule = t.type({ service: minLengthString(1), method: oneOf(['GET', 'POST']) });
const Spec = t.type({
  spec: t.intersection([
    t.type({ name: minLengthString(1), roles: minLengthArray(t.string, 1), days: withDefault(integerInRange(2), 365) }),
    t.partial({ rules: t.array(Rule), mode: t.union([t.literal('a'), t.literal('b')]) }),
  ]),
});

function failureOf(input: unknown): string {
  const result = decode(Spec, input);
  if (!isLeft(result)) throw new Error('expected a failure');
  return result.left.message;
}

describe('decode', () => {
  it('applies defaults and accepts a valid input', () => {
    const result = decode(Spec, { spec: { name: 'x', roles: ['r'] } });
    expect(isRight(result) && result.right.spec.days).toBe(365);
  });

  it.each([
    [{ spec: { name: '', roles: ['r'] } }, 'spec.name: expected a string of at least 1 character, got ""'],
    [{ spec: { name: 'x', roles: [] } }, 'spec.roles: expected a list of at least 1 item, got a list'],
    [{ spec: { name: 'x', roles: ['r'], days: 1 } }, 'spec.days: expected an integer >= 2, got 1'],
    [{ spec: { name: 'x', roles: ['r'], rules: [{ service: 's', method: 'PUT' }] } }, 'spec.rules[0].method: expected one of GET, POST, got "PUT"'],
    [{ spec: { roles: ['r'] } }, 'spec.name: required'],
    [{}, 'spec: required'],
  ])('names the field of %j', (input, expected) => {
    expect(failureOf(input)).toContain(expected);
  });

  it('never throws on random input, and every rejection names a field or the root', () => {
    fc.assert(
      fc.property(fc.anything(), (input) => {
        const result = decode(Spec, input);
        if (isLeft(result)) {
          expect(result.left.problems.length).toBeGreaterThan(0);
          expect(result.left.message.length).toBeGreaterThan(0);
        }
      }),
    );
  });

  it('every rejection of a mutated valid spec names a field under spec', () => {
    const valid = { name: 'x', roles: ['r'], days: 3 };
    fc.assert(
      fc.property(fc.constantFrom('name', 'roles', 'days'), fc.anything(), (field, value) => {
        const result = decode(Spec, { spec: { ...valid, [field]: value } });
        if (isLeft(result)) {
          expect(result.left.problems.every((p) => p.path.startsWith(`spec.${field}`))).toBe(true);
        }
      }),
    );
  });
});

describe('messages name the field as a user writes it and the value the user wrote', () => {
  const Fields = t.intersection([t.type({ name: minLengthString(1) }), t.partial({ days: integerInRange(2, 100) })]);
  // A cross-field rule wraps the fields in a Type of its own, as domain codecs do.
  const Wrapped = new t.Type<t.TypeOf<typeof Fields>, t.OutputOf<typeof Fields>>('Wrapped', Fields.is, (u, c) => Fields.validate(u, c), Fields.encode);
  const messageOf = (codec: t.Decoder<unknown, unknown>, input: unknown): string => {
    const result = decode(codec, input);
    if (!isLeft(result)) throw new Error('expected a failure');
    return result.left.message;
  };

  it('a missing field inside a wrapped intersection is "spec: required", without branch indices or type names', () => {
    expect(messageOf(t.type({ spec: Wrapped }), {})).toBe('spec: required');
    expect(messageOf(t.type({ spec: Wrapped }), { spec: {} })).toBe('spec.name: required');
  });

  it('an object where a value belongs says "an object", not the codec internals', () => {
    expect(messageOf(t.type({ spec: Wrapped }), { spec: 'x' })).toBe('spec: expected an object, got "x"');
    expect(messageOf(t.type({ list: t.array(t.string) }), { list: 3 })).toBe('list: expected a list, got 3');
    expect(messageOf(t.type({ flag: t.boolean }), { flag: 'yes' })).toBe('flag: expected true or false, got "yes"');
  });

  it('a number beyond 2^53 is out of range, not a rounded value', () => {
    const message = messageOf(t.type({ spec: Wrapped }), { spec: { name: 'x', days: 2 ** 53 + 2 } });
    expect(message).toBe('spec.days: expected an integer from 2 to 100, got a number out of range (beyond 2^53)');
    expect(message).not.toContain('9007199254740');
    expect(messageOf(t.type({ n: integerInRange(0) }), { n: -(2 ** 60) })).toContain('got a number out of range (beyond 2^53)');
  });

  it('an exact number is shown as written', () => {
    expect(messageOf(t.type({ n: integerInRange(2, 100) }), { n: 101 })).toBe('n: expected an integer from 2 to 100, got 101');
  });
});

describe('uniqueList', () => {
  const Roles = t.type({ spec: t.type({ roles: uniqueList(minLengthArray(minLengthString(1), 1)) }) });
  const Rules = t.type({ spec: t.type({ rules: uniqueList(t.array(Rule), (r) => `${r.method} ${r.service}`) }) });

  it('rejects a repeated item at its index, naming the first one and the value', () => {
    const result = decode(Roles, { spec: { roles: ['admin', 'service', 'service'] } });
    expect(isLeft(result) && result.left.message).toBe('spec.roles[2]: duplicate of spec.roles[1] ("service")');
    expect(isLeft(result) && result.left.problems.map((p) => p.path)).toEqual(['spec.roles[2]']);
  });

  it('compares structured items by their key and describes them by it', () => {
    const rule = { service: 'compute', method: 'GET' };
    const result = decode(Rules, { spec: { rules: [rule, { service: 'image', method: 'GET' }, { ...rule }] } });
    expect(isLeft(result) && result.left.message).toBe('spec.rules[2]: duplicate of spec.rules[0] ("GET compute")');
  });

  it('compares a key of several fields field by field, as a list map does', () => {
    const ByTuple = uniqueList(t.array(t.type({ service: t.string, path: t.string })), (r) => [r.service, r.path]);
    expect(isRight(decode(ByTuple, [{ service: 'image b', path: '/v2' }, { service: 'image', path: 'b /v2' }]))).toBe(true);
    const result = decode(t.type({ rules: ByTuple }), { rules: [{ service: 'image', path: '/v2' }, { service: 'image', path: '/v2' }] });
    expect(isLeft(result) && result.left.message).toBe('rules[1]: duplicate of rules[0] ("image /v2")');
  });

  it('accepts distinct items and keeps the inner list rules', () => {
    expect(isRight(decode(Roles, { spec: { roles: ['admin', 'service'] } }))).toBe(true);
    expect(isLeft(decode(Roles, { spec: { roles: [] } }))).toBe(true);
    expect(uniqueList(t.array(t.string)).is(['a', 'a'])).toBe(false);
    expect(uniqueList(t.array(t.string)).is(['a', 'b'])).toBe(true);
  });

  it('accepts exactly the lists without repeats', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'b', 'c', 'd')), (roles) => {
        expect(isRight(decode(uniqueList(t.array(t.string)), roles))).toBe(new Set(roles).size === roles.length);
      }),
    );
  });
});

describe('kubernetesName', () => {
  const Ref = t.type({ spec: t.type({ secret: kubernetesName() }) });

  it.each([['osp-secret'], ['a'], ['a.b-c.d0'], ['x'.repeat(253)]])('accepts name %#', (name) => {
    expect(isRight(decode(Ref, { spec: { secret: name } }))).toBe(true);
  });

  it.each([['a\\b'], [''], ['Upper'], ['-a'], ['a-'], ['a..b'], ['a_b'], ['x'.repeat(254)]])('rejects name %#, naming the field', (name) => {
    const result = decode(Ref, { spec: { secret: name } });
    expect(isLeft(result) && result.left.problems.map((p) => p.path)).toEqual(['spec.secret']);
    expect(isLeft(result) && result.left.message).toMatch(/^spec\.secret: expected a Kubernetes object name \(/);
  });
});

describe('dateTime', () => {
  const Spec = t.type({ spec: t.type({ expiresAt: dateTime() }) });

  // As the API server reads a field of dateTimeSchema: its format check, and its rule's timestamp parse.
  it.each([['2025-01-31T12:00:00Z'], ['2024-02-29T23:59:59.123456+01:00'], ['2024-02-29T23:59:59,5-24:60'], ['0000-02-29T00:00:00Z']])('accepts %s', (text) => {
    expect(isRight(decode(Spec, { spec: { expiresAt: text } }))).toBe(true);
  });

  it.each([['yesterday'], [''], ['2025-01-31'], ['2025-01-31 12:00:00Z'], ['2025-02-29T00:00:00Z'], ['2025-1-31T12:00:00Z'], ['2025-01-31T24:00:00Z'], ['2025-01-31T12:00:00'], ['2025-01-31T12:00:00+0100'],
    // The format check takes these; the timestamp parse of the schema's rule does not.
    ['2024-02-29t23:59:59+01:00'], ['2025-01-31T12:00:00z'], ['2020-01-01T00:00:00ZTfoo'], ['2025-01-31T12:00:00x5Z'], ['2025-01-31T12:00:00+25:00'], ['2025-01-31T12:00:00+01:61']])('rejects %j, naming the field', (text) => {
    const result = decode(Spec, { spec: { expiresAt: text } });
    expect(isLeft(result) && result.left.message).toMatch(/^spec\.expiresAt: expected an RFC 3339 date-time/);
  });
});
