import type { ResourceType } from '@keyward/kernel';
import { crdName } from '@keyward/runtime/controller';
import type { ErasedModule } from './controllers.js';

/**
 * How to get a missing CRD: ours from `keyward crds` for the controller that serves it; another operator's
 * (KeystoneAPI) from that operator.
 */
export function installHint(type: ResourceType, modules: readonly ErasedModule[]): string {
  const crd = crdName(type);
  const owner = modules.find((module) => module.crds.some((object) => 'metadata' in object && typeof object.metadata === 'object' && object.metadata !== null && 'name' in object.metadata && object.metadata.name === crd));
  return owner === undefined ? 'install it (it comes with the operator that owns it)' : `install it with \`keyward crds --controllers ${owner.definition.name} | kubectl apply -f -\``;
}

/** What `keyward run` says, once, about a controller that waits for a CRD. */
export function missingCrdMessage(controller: string, type: ResourceType, modules: readonly ErasedModule[]): string {
  return `CRD ${crdName(type)} is not installed; ${installHint(type, modules)} or disable the controller (leave ${controller} out of --controllers); it starts once the CRD is installed`;
}
