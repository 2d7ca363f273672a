import { describe, expect, it } from '@jest/globals';
import { operatorVersion } from '../src/version.js';

describe('operatorVersion', () => {
  it('is the semantic version from package.json', () => {
    expect(operatorVersion()).toMatch(/^\d+\.\d+\.\d+(-[0-9a-z.]+)?$/);
  });
});
