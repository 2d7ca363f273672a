import { stringify } from 'yaml';
import { MODULES } from './controllers.js';

/**
 * The CRDs the operator serves, from the definitions its controllers validate with (deploy/crds is
 * generated from the same ones). KeystoneAPI is not among them: that CRD belongs to the Keystone operator.
 */
export const OPERATOR_CRDS: readonly object[] = MODULES.flatMap((module) => module.crds);

/**
 * Every CRD as one multi-document YAML stream, for `keyward crds | kubectl apply -f -`: the documents of
 * deploy/crds, written out in full (no YAML anchors for repeated schemas, which some tools reject).
 */
export function crdsYaml(): string {
  // kubectl and Helm read YAML 1.1, where an unquoted Yes or No is a boolean: written as 1.1, such strings are quoted.
  return OPERATOR_CRDS.map((crd) => stringify(crd, { aliasDuplicateObjects: false, version: '1.1' })).join('---\n');
}
