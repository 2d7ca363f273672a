import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import * as t from 'io-ts';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import { decode, integerInRange, minLengthArray, minLengthString, oneOf, withDefault } from '../../src/model/codec.js';

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
