import { describe, expect, it } from '@jest/globals';
import { inspect } from 'node:util';
import { sensitive } from '../../src/model/sensitive.js';

describe('Sensitive', () => {
  const secret = sensitive('hunter2-very-secret');

  it.each([
    ['String()', () => String(secret)],
    ['a template', () => `value: ${secret.toString()}`],
    ['JSON', () => JSON.stringify({ nested: { secret } })],
    ['inspect', () => inspect({ secret }, { depth: 5 })],
    ['an error message', () => new Error(`failed with ${String(secret)}`).message],
  ])('never shows its value through %s', (_how, render) => {
    const text = render();
    expect(text).not.toContain('hunter2');
    expect(text).toContain('***');
  });

  it('reveals on request and compares without revealing', () => {
    expect(secret.reveal()).toBe('hunter2-very-secret');
    expect(secret.equals(sensitive('hunter2-very-secret'))).toBe(true);
    expect(secret.equals(sensitive('other'))).toBe(false);
  });
});
