import type { ResourceType } from '@keyward/core';
import { crdName } from '@keyward/core/runtime';
import type { ErasedModule } from './controllers.js';

/** How to get a missing CRD: ours come from `keyward crds`; another operator's (KeystoneAPI) from that operator. */
export function installHint(type: ResourceType, modules: readonly ErasedModule[]): string {
  const crd = crdName(type);
  const ours = modules.some((module) => module.crds.some((object) => (object as { metadata?: { name?: unknown } }).metadata?.name === crd));
  return ours ? 'install it with `keyward crds | kubectl apply -f -`' : 'install it (it comes with the operator that owns it)';
}

/** What `keyward run` says, once, about a controller that waits for a CRD. */
export function missingCrdMessage(controller: string, type: ResourceType, modules: readonly ErasedModule[]): string {
  return `CRD ${crdName(type)} is not installed; ${installHint(type, modules)} or disable the controller (leave ${controller} out of --controllers); it starts once the CRD is installed`;
}
