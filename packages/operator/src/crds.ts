import { stringify } from 'yaml';
import { CONTROLLER_NAMES, MODULES, type ControllerName } from './controllers.js';

/**
 * The CRDs the operator serves, from the definitions its controllers validate with (deploy/crds is
 * generated from the same ones). KeystoneAPI is not among them: that CRD belongs to the Keystone operator.
 */
export const OPERATOR_CRDS: readonly object[] = MODULES.flatMap((module) => module.crds);

/**
 * The CRDs of `controllers` (default: all) as one multi-document YAML stream, for
 * `keyward crds | kubectl apply -f -`: the documents of deploy/crds, written out in full (no YAML anchors for
 * repeated schemas, which some tools reject).
 */
export function crdsYaml(controllers: readonly ControllerName[] = CONTROLLER_NAMES): string {
  const crds = MODULES.filter((module) => controllers.includes(module.definition.name)).flatMap((module) => module.crds);
  // kubectl and Helm read YAML 1.1, where an unquoted Yes or No is a boolean: written as 1.1, such strings are quoted.
  return crds.map((crd) => stringify(crd, { aliasDuplicateObjects: false, version: '1.1' })).join('---\n');
}
