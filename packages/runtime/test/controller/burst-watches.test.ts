import { describe, expect, it } from '@jest/globals';
import { BurstCounter } from '../../src/controller/burst-watches.js';

describe('BurstCounter', () => {
  it('reports a burst once the threshold is reached within one window, and from then on in that window', () => {
    const counter = new BurstCounter(3, 1_000);
    expect([counter.record('a', 0), counter.record('a', 100), counter.record('a', 999), counter.record('a', 999)]).toEqual([false, false, true, true]);
  });

  it('starts counting again when the window has passed', () => {
    const counter = new BurstCounter(3, 1_000);
    counter.record('a', 0);
    counter.record('a', 500);
    expect([counter.record('a', 1_000), counter.record('a', 1_500), counter.record('a', 1_999)]).toEqual([false, false, true]);
  });

  it('counts each key on its own', () => {
    const counter = new BurstCounter(2, 1_000);
    expect([counter.record('a', 0), counter.record('b', 1), counter.record('a', 2), counter.record('b', 3)]).toEqual([false, false, true, true]);
  });

  it('forgets the windows that ended, so keys read once do not pile up', () => {
    const counter = new BurstCounter(2, 1_000);
    for (let key = 0; key < 100; key++) counter.record(`namespace-${String(key)}`, key);
    expect(counter.size).toBe(100);
    counter.record('later', 5_000);
    expect(counter.size).toBe(1);
  });
});
