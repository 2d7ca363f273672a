import { describe, expect, it } from '@jest/globals';
import { lazyEntropy } from '../../src/controller/reconcile-input.js';

describe('lazyEntropy', () => {
  const counting = () => {
    const draws: number[] = [];
    let next = 0;
    const draw = (bytes: number): Uint8Array => {
      draws.push(bytes);
      return Uint8Array.from({ length: bytes }, () => ++next);
    };
    return { draws, draw };
  };

  it('draws nothing until the reconcile reads it', () => {
    const { draws, draw } = counting();
    lazyEntropy(draw);
    expect(draws).toEqual([]);
  });

  it('gives the same bytes for the same length, drawing once', () => {
    const { draws, draw } = counting();
    const entropy = lazyEntropy(draw);
    expect([entropy(3), entropy(3), draws]).toEqual([Uint8Array.of(1, 2, 3), Uint8Array.of(1, 2, 3), [3]]);
  });

  it('extends the same stream for a longer read: a shorter read is a prefix of a longer one', () => {
    const { draws, draw } = counting();
    const entropy = lazyEntropy(draw);
    const short = entropy(2);
    const long = entropy(5);
    expect([short, long, entropy(2), draws]).toEqual([Uint8Array.of(1, 2), Uint8Array.of(1, 2, 3, 4, 5), Uint8Array.of(1, 2), [2, 3]]);
  });
});
