import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { ConfigOption } from '@keyward/kernel/plan';
import { chartFiles, compactJson } from '../../scripts/chart-values.js';
import { API_MODULES } from '../../packages/operator/src/apis.js';
import { MODULES } from '../../packages/operator/src/controllers.js';

const committed = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

describe('the Helm chart\'s parts the modules make', () => {
  it.each(Object.entries(chartFiles()))('%s is as generated from the API and controller modules (run pnpm generate:chart)', (path, text) => {
    expect(committed(path)).toBe(text);
  });

  it('gives every option with a Helm value a value in values.yaml at its path, under the same variable it is given in the Deployment', () => {
    const values: unknown = parse(committed('deploy/helm/keyward/values.yaml'));
    const template = committed('deploy/helm/keyward/templates/_modules.tpl');
    const options = [...MODULES.flatMap((module) => Object.values<ConfigOption<unknown> | undefined>(module.options)), ...API_MODULES.flatMap((module) => Object.values(module.options))];
    const withHelm = options.flatMap((option) => (option?.helm === undefined ? [] : [{ env: option.env, path: option.helm.path }]));
    expect(withHelm.length).toBeGreaterThan(10);
    for (const { env, path } of withHelm) {
      const found = path.split('.').reduce<unknown>((node, key) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined), values);
      expect([path, found === undefined]).toEqual([path, false]);
      expect(template).toContain(`(list "${String(env)}" `);
      expect(template).toContain(`.Values.${path}`);
    }
  });

  it('writes JSON an object a line where it does not fit in 120 columns, and means the same', () => {
    const value = { short: { a: [1, 2] }, long: { text: 'x'.repeat(130) } };
    expect(compactJson(value)).toBe(`{\n  "short": { "a": [1, 2] },\n  "long": {\n    "text": "${'x'.repeat(130)}"\n  }\n}`);
    expect(JSON.parse(compactJson(value))).toEqual(value);
  });
});
