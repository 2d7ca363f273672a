import type { ResourceType } from '@keyward/kernel';

/** The API group of the existing Kopf-based operator, kept so its objects are ours unchanged. */
export const GROUP = 'vriesdemichael.github.io';
export const VERSION = 'v1';

export const keycloakRealmType: ResourceType = { group: GROUP, version: VERSION, kind: 'KeycloakRealm', plural: 'keycloakrealms', namespaced: true };
export const keycloakClientType: ResourceType = { group: GROUP, version: VERSION, kind: 'KeycloakClient', plural: 'keycloakclients', namespaced: true };

/** Held by a KeycloakRealm or KeycloakClient until what it made in Keycloak is gone (or retained by policy). */
export const REALM_FINALIZER = 'keycloak.keyward.io/realm';
export const CLIENT_FINALIZER = 'keycloak.keyward.io/client';
