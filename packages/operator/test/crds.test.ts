import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { crdsYaml } from '../src/crds.js';

const deployed = [
  'keystoneapplicationcredentials.keystone.openstack.org.yaml',
  'apikeys.devportal.kuadrant.io.yaml',
  'keycloakrealms.vriesdemichael.github.io.yaml',
  'keycloakclients.vriesdemichael.github.io.yaml',
  'keystones.keystone.openstack.c5c3.io.yaml',
].map((name) =>
  readFileSync(new URL(`../../../deploy/crds/${name}`, import.meta.url), 'utf8').replace(/^#.*\n/, ''),
);

describe('keyward crds', () => {
  it('prints exactly the documents deploy/crds holds, without YAML anchors', () => {
    expect(crdsYaml()).toBe(deployed.join('---\n'));
    expect(crdsYaml()).not.toMatch(/[&*]a\d+/);
  });
});
