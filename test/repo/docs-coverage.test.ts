// The docs name what the code can show a user: every spec field of the CRDs (in the domain's doc), and every
// value a metric label takes from a closed set (in operations.md). The values come from the code itself.
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import type { ReconcileResult } from '@keyward/runtime/controller';
import { keycloakApi } from '@keyward/keycloak/api';
import { controlApi, keystoneApi, kubernetesApi } from '@keyward/kernel';
import type { ApiSet, StepOutcome } from '@keyward/kernel/interpreter';
import type { OperatorApis } from '../../packages/operator/src/apis.js';
import { CONTROLLER_NAMES } from '../../packages/operator/src/controllers.js';
import { deployedCrds, fieldsBelow } from './crd-fields.js';

const doc = (name: string): string => readFileSync(new URL(`../../docs/${name}`, import.meta.url), 'utf8');
/** Whether `text` shows `value` as code, as the docs write names and values: `name`. */
const showsAsCode = (text: string, value: string): boolean => text.includes(`\`${value}\``);
/** Whether `text` names the spec field at `path` (below spec): itself, or an object through the fields in it (`image.tag`). */
const namesField = (text: string, path: string): boolean =>
  [path, `spec.${path}`].some((name) => showsAsCode(text, name) || text.includes(`\`${name}.`));

/** The doc of each CRD's spec. The Keycloak CRDs are being restructured; keycloak.md follows that work. */
const DOC_OF_CRD: Readonly<Record<string, string>> = {
  'apikeys.devportal.kuadrant.io': 'apikey-enforcement.md',
  'keystoneapplicationcredentials.keystone.openstack.org': 'keystone-appcred.md',
  'keystones.keystone.openstack.c5c3.io': 'keystone-service.md',
};
const NOT_CHECKED_YET = ['keycloakrealms.vriesdemichael.github.io', 'keycloakclients.vriesdemichael.github.io'];

/** Every member of the union `U`, as listed: the compiler refuses a list that leaves one out. */
function everyMemberOf<U extends string>() {
  return <const L extends readonly U[]>(list: L & ([Exclude<U, L[number]>] extends [never] ? unknown : { readonly missing: Exclude<U, L[number]> })): readonly string[] => list;
}

/** The API modules whose actions the operator's plans contain; the compiler checks none is left out. */
const API_MODULES = [kubernetesApi, keystoneApi, keycloakApi, controlApi] as const;
type OperatorActionKind = OperatorApis extends ApiSet<infer A, infer _Q> ? A['kind'] : never;
type KindsOf<T> = T extends { readonly actions: infer R } ? keyof R : never;
const everyOperatorAction: [Exclude<OperatorActionKind, KindsOf<(typeof API_MODULES)[number]>>] extends [never] ? true : never = true;

/** Label values that come from a closed set, by label. */
const LABEL_VALUES: readonly (readonly [string, readonly string[]])[] = [
  ['controller', CONTROLLER_NAMES],
  ['result', everyMemberOf<ReconcileResult>()(['success', 'requeue', 'error', 'invalid', 'gone'])],
  ['kind (actions)', API_MODULES.flatMap((api) => Object.keys(api.actions))],
  // 'planned' is the outcome of a dry run (keyward plan), which counts nothing.
  ['outcome', everyMemberOf<Exclude<StepOutcome, 'planned'>>()(['applied', 'unchanged', 'failed', 'skipped'])],
  // The control module plans, it sends no request.
  ['api', API_MODULES.filter((api) => api.name !== controlApi.name).map((api) => api.name)],
  // The two kinds the informer instrumentation tells apart.
  ['kind (informer restarts)', ['relist', 'watch']],
];

describe('docs', () => {
  it('every CRD of deploy/crds has its doc here, but the Keycloak ones', () => {
    expect(everyOperatorAction).toBe(true);
    const names = deployedCrds().map((crd) => crd.metadata.name);
    expect(names.filter((name) => !(name in DOC_OF_CRD) && !NOT_CHECKED_YET.includes(name))).toEqual([]);
    expect(Object.keys(DOC_OF_CRD).filter((name) => !names.includes(name))).toEqual([]);
  });

  it.each(Object.entries(DOC_OF_CRD))('%s: every spec field is named in docs/%s', (name, file) => {
    const crd = deployedCrds().find((candidate) => candidate.metadata.name === name);
    const spec = crd?.spec.versions[0]?.schema.openAPIV3Schema.properties?.['spec'];
    if (spec === undefined) throw new Error(`${name} has no spec`);
    const text = doc(file);
    const paths = fieldsBelow(spec, 'spec').map(({ path }) => path.slice('spec.'.length));
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.filter((path) => !namesField(text, path))).toEqual([]);
  });

  it.each(LABEL_VALUES)('operations.md names every value of the metric label %s', (_label, values) => {
    expect(values.length).toBeGreaterThan(0);
    const text = doc('operations.md');
    expect(values.filter((value) => !showsAsCode(text, value))).toEqual([]);
  });
});
