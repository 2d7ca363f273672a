// The resource type of every kind that examples/ holds, for what applies those files as a user would: the demo,
// and the test that installs the chart in pods.
import { coreTypes, type ResourceType } from '@keyward/kernel';
import { apiKeyType } from '@keyward/apikey-enforcement';
import { keycloakClientType, keycloakRealmType } from '@keyward/keycloak';
import { appCredType } from '@keyward/keystone-appcred';
import { keystoneType } from '@keyward/keystone-service';

export const exampleTypes: Readonly<Record<string, ResourceType>> = {
  Namespace: coreTypes.namespace,
  Secret: coreTypes.secret,
  KeystoneApplicationCredential: appCredType,
  APIKey: apiKeyType,
  KeycloakRealm: keycloakRealmType,
  KeycloakClient: keycloakClientType,
  Keystone: keystoneType,
};
