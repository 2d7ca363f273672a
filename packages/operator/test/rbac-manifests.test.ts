import { describe, expect, it } from '@jest/globals';
import { METRICS_READER, metricsReaderRole, rbacManifests, type RbacInstall, type RbacObject, type RoleObject } from '../src/rbac-manifests.js';

const NAMESPACED: RbacInstall = {
  controllers: ['keystone-appcred', 'apikey-enforcement'],
  namespaces: ['team-a', 'team-b'],
  operatorNamespace: 'ops',
  enforcementNamespace: 'gateway',
  serviceAccount: 'keyward',
};

/** The reviews of the secure metrics server, in a ClusterRole of every install. */
const REVIEWS = 'ClusterRole /keyward-runtime-ops: authentication.k8s.io/tokenreviews create; authorization.k8s.io/subjectaccessreviews create';

/** "Kind namespace/name: group/resource verbs; ..." for each of the operator's roles, sorted. */
function roles(objects: readonly RbacObject[]): string[] {
  return objects
    .filter((object): object is RoleObject => (object.kind === 'Role' || object.kind === 'ClusterRole') && !object.metadata.name.startsWith(METRICS_READER))
    .map((role) => `${role.kind} ${role.metadata.namespace ?? ''}/${role.metadata.name}: ${role.rules.map((rule) => `${rule.apiGroups.join(',')}/${rule.resources.join(',')} ${rule.verbs.join(',')}`).join('; ')}`)
    .sort();
}

describe('rbacManifests', () => {
  it('gives a namespaced install Roles in its namespaces, the Lease\'s and the enforcement namespace only', () => {
    expect(roles(rbacManifests(NAMESPACED))).toEqual([
      REVIEWS,
      'Role gateway/keyward-apikey-enforcement: /secrets get,list,watch,create,delete',
      'Role ops/keyward-runtime: coordination.k8s.io/leases get,list,create,update,delete; /configmaps create,patch',
      ...['team-a', 'team-b'].flatMap((namespace) => [
        `Role ${namespace}/keyward-apikey-enforcement: devportal.kuadrant.io/apikeys get,list,watch; devportal.kuadrant.io/apikeys/status patch; /secrets get,list,watch`,
        `Role ${namespace}/keyward-keystone-appcred: keystone.openstack.org/keystoneapplicationcredentials get,list,watch,patch; keystone.openstack.org/keystoneapplicationcredentials/status patch; keystone.openstack.org/keystoneapis get,list,watch; keystone.openstack.c5c3.io/keystones get,list,watch; /secrets get,list,watch,create,patch,delete`,
        `Role ${namespace}/keyward-runtime: /events create`,
      ]),
    ]);
  });

  it('puts every rule of a component in one place into one Role, when a watched namespace is also the enforcement one', () => {
    const objects = rbacManifests({ ...NAMESPACED, controllers: ['apikey-enforcement'], namespaces: ['gateway'] });
    expect(roles(objects).filter((role) => role.includes('apikey'))).toEqual([
      'Role gateway/keyward-apikey-enforcement: devportal.kuadrant.io/apikeys get,list,watch; devportal.kuadrant.io/apikeys/status patch; /secrets get,list,watch; /secrets get,list,watch,create,delete',
    ]);
  });

  it('gives the Keycloak controllers a Role to read the admin Secret in its namespace, else in --keycloak-operator-namespace', () => {
    const keycloak: RbacInstall = { ...NAMESPACED, controllers: ['keycloak-realm', 'keycloak-client'], namespaces: ['team-a'], keycloakOperatorNamespace: 'ops' };
    const watched = [
      'Role team-a/keyward-keycloak-client: vriesdemichael.github.io/keycloakclients get,list,watch,patch; vriesdemichael.github.io/keycloakclients/status patch; vriesdemichael.github.io/keycloakrealms get,list,watch; /secrets get,list,watch,create,patch,delete',
      'Role team-a/keyward-keycloak-realm: vriesdemichael.github.io/keycloakrealms get,list,watch,patch; vriesdemichael.github.io/keycloakrealms/status patch; /secrets get,list,watch',
      'Role team-a/keyward-runtime: /events create',
    ];
    expect(roles(rbacManifests(keycloak))).toEqual([
      REVIEWS,
      'Role ops/keyward-keycloak-client: /secrets get,list,watch',
      'Role ops/keyward-keycloak-realm: /secrets get,list,watch',
      'Role ops/keyward-runtime: coordination.k8s.io/leases get,list,create,update,delete; /configmaps create,patch',
      ...watched,
    ]);
    expect(roles(rbacManifests({ ...keycloak, keycloakAdminSecret: { namespace: 'keycloak', name: 'admin' } }))).toEqual([
      REVIEWS,
      'Role keycloak/keyward-keycloak-client: /secrets get,list,watch',
      'Role keycloak/keyward-keycloak-realm: /secrets get,list,watch',
      'Role ops/keyward-runtime: coordination.k8s.io/leases get,list,create,update,delete; /configmaps create,patch',
      ...watched,
    ]);
  });

  it('binds each role, by a binding of its name and place, to the ServiceAccount in the operator\'s namespace', () => {
    const objects = rbacManifests({ ...NAMESPACED, controllers: ['keystone-appcred'], namespaces: 'all', serviceAccount: 'op' });
    expect(objects.map((object) => `${object.kind} ${object.metadata.namespace ?? ''}/${object.metadata.name}`)).toEqual([
      'Role ops/keyward-runtime',
      'RoleBinding ops/keyward-runtime',
      'ClusterRole /keyward-runtime',
      'ClusterRoleBinding /keyward-runtime',
      'ClusterRole /keyward-keystone-appcred',
      'ClusterRoleBinding /keyward-keystone-appcred',
      'ClusterRole /keyward-metrics-reader',
    ]);
    for (const binding of objects.filter((object) => object.kind.endsWith('Binding'))) {
      expect(binding).toMatchObject({
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: binding.kind.replace(/Binding$/, ''), name: binding.metadata.name },
        subjects: [{ kind: 'ServiceAccount', name: 'op', namespace: 'ops' }],
      });
    }
  });

  it('adds, in every install, the ClusterRole that lets a scraper get /metrics, bound to nobody; a namespaced install\'s named after its namespace', () => {
    const readerOf = (install: RbacInstall): RbacObject[] => rbacManifests(install).filter((object) => object.metadata.name.startsWith(METRICS_READER));
    const role = (name: string): unknown => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name, labels: { 'app.kubernetes.io/name': 'keyward' } }, rules: [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }] });
    expect(readerOf({ ...NAMESPACED, namespaces: 'all' })).toEqual([role('keyward-metrics-reader')]);
    expect(readerOf(NAMESPACED)).toEqual([role('keyward-metrics-reader-ops')]);
    expect(readerOf(NAMESPACED)).toEqual([metricsReaderRole(NAMESPACED)]);
  });

  it('names the ClusterRoles of namespaced installs in namespaces of their own apart, so they can share a cluster', () => {
    const clusterRoles = (operatorNamespace: string): string[] => rbacManifests({ ...NAMESPACED, operatorNamespace }).filter((object) => object.kind.startsWith('Cluster')).map((object) => `${object.kind} ${object.metadata.name}`);
    expect(clusterRoles('ops')).toEqual(['ClusterRole keyward-runtime-ops', 'ClusterRoleBinding keyward-runtime-ops', 'ClusterRole keyward-metrics-reader-ops']);
    expect(clusterRoles('ops-2').filter((name) => clusterRoles('ops').includes(name))).toEqual([]);
  });
});
