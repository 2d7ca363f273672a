import { coreTypes } from '@keyward/kernel';
import { KeywardError } from '@keyward/kernel/interpreter';
import { type KubeClient } from '@keyward/runtime/io';
import type { RuntimeLogger } from '@keyward/runtime/controller';
import type { OperatorConfig } from './config.js';
import { SETTINGS_CONFIGMAP, publishedSettings, readPublished, settingsConfigMap, type Lookup } from './operator-settings.js';
import { operatorVersion } from './version.js';

const settingsRef = (namespace: string) => ({ type: coreTypes.configMap, namespace, name: SETTINGS_CONFIGMAP });

/**
 * Publishes the operator's settings in its namespace, for `keyward plan`. Every replica does (they run with the
 * same flags); one that cannot still reconciles, so a failure is a warning.
 */
export async function publishSettings(kube: KubeClient, config: OperatorConfig, logger: RuntimeLogger): Promise<void> {
  const namespace = config.leaderElection.leaseNamespace;
  try {
    // Forced: the operator owns the whole ConfigMap, whoever edited it last.
    await kube.apply(settingsRef(namespace), settingsConfigMap(namespace, publishedSettings(config, operatorVersion())), true);
    logger.debug('published the settings for keyward plan', { configMap: `${namespace}/${SETTINGS_CONFIGMAP}` });
  } catch (error) {
    logger.warn('could not publish the settings for keyward plan; it will plan with its own', {
      configMap: `${namespace}/${SETTINGS_CONFIGMAP}`,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

/** The running operator's settings in `namespace`, or why there are none (absent, forbidden, unreadable). */
export async function lookUpSettings(kube: KubeClient, namespace: string): Promise<Lookup> {
  const where = `ConfigMap ${namespace}/${SETTINGS_CONFIGMAP}`;
  let object;
  try {
    object = await kube.get(settingsRef(namespace));
  } catch (error) {
    if (error instanceof KeywardError && error.code === 403) return { kind: 'none', namespace, reason: `${where} may not be read (forbidden)` };
    return { kind: 'none', namespace, reason: `${where} could not be read: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (object === undefined) return { kind: 'none', namespace, reason: `no ${where}` };
  const read = readPublished(object['data']);
  return read.ok ? { kind: 'found', namespace, published: read.published } : { kind: 'none', namespace, reason: `${where} is unusable: ${read.problem}` };
}
