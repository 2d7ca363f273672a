import { accept, formatDuration, parseBoolean, parseDuration, parseDns1123Label, parseDns1123Subdomain, parseHttpUrl, parsePositiveInteger, reject, type Parsed } from '@keyward/kernel/model';
import { defineControllerModule, type ControllerModule } from '@keyward/kernel';
import { type RbacRule } from '@keyward/kernel/plan';
import { keycloakClientController } from './client/controller.js';
import { keycloakClientCrd } from './client/crd.js';
import { ADOPT_FLAG, parseAdoptionScopes, parseRetiredAdoptSwitch } from './adoption.js';
import { parseAllowedServiceAccountRoles } from './client/role-guard.js';
import { defaultKeycloakConfig, type KeycloakConfig } from './config.js';
import { keycloakRealmController } from './realm/controller.js';
import { keycloakRealmCrd } from './realm/crd.js';
import { GROUP } from './types.js';

/** `namespace/name` of a Secret. */
export function parseSecretRef(raw: string): Parsed<{ readonly namespace: string; readonly name: string }> {
  const [namespace = '', name = '', ...rest] = raw.split('/');
  if (rest.length > 0 || !parseDns1123Label(namespace).ok || !parseDns1123Subdomain(name).ok) return reject('is not a Secret as namespace/name');
  return accept({ namespace, name });
}

/** The longest and shortest resync period: a day at most, and no less than a second (or 0: off). */
const RESYNC_BOUNDS_MS = { min: 1_000, max: 24 * 3_600_000 };

/** A resync period: a duration ("10m", "1h") within the bounds, or 0 to turn the periodic check off. */
export function parseResyncPeriod(raw: string): Parsed<number> {
  const text = raw.trim();
  if (text === '0') return accept(0);
  const ms = parseDuration(text);
  if (ms === undefined) return reject('is not a duration such as 30s, 10m or 1h, or 0 (off)');
  return ms >= RESYNC_BOUNDS_MS.min && ms <= RESYNC_BOUNDS_MS.max ? accept(ms) : reject(`is not between ${formatDuration(RESYNC_BOUNDS_MS.min)} and ${formatDuration(RESYNC_BOUNDS_MS.max)}, or 0 (off)`);
}

/** A resync period as the flag takes it: "10m", or milliseconds where the short form would round. */
function formatResyncPeriod(ms: number): string {
  if (ms === 0) return '0';
  const short = formatDuration(ms);
  return parseDuration(short) === ms ? short : `${String(ms)}ms`;
}

/** The options both Keycloak controllers read: they share one Keycloak and one admin Secret. */
const keycloakOptions = {
  keycloakUrl: {
    flags: '--keycloak-url <url>',
    env: 'KEYWARD_KEYCLOAK_URL',
    description: "Keycloak's root URL (without /admin or /realms)",
    defaultText: 'none: realms and clients wait for one',
    parse: parseHttpUrl,
    helm: { path: 'keycloak.url', type: 'text', comment: "Keycloak's root URL (without /admin or /realms). Empty: realms and clients wait for one and say so in their status." },
  },
  keycloakAdminSecret: {
    flags: '--keycloak-admin-secret <namespace/name>',
    env: 'KEYWARD_KEYCLOAK_ADMIN_SECRET',
    description: "the Secret with Keycloak's admin credentials: username and password, or client-id and client-secret",
    defaultText: 'none',
    parse: parseSecretRef,
    helm: {
      path: 'keycloak.adminSecret',
      type: 'namespacedName',
      comment: "the Secret with Keycloak's admin credentials, as namespace/name (keys username and password, or client-id and client-secret). The Keycloak controllers' Roles for reading it go to its namespace. Empty: none.",
    },
  },
  keycloakOperatorNamespace: {
    flags: '--keycloak-operator-namespace <namespace>',
    env: 'KEYWARD_KEYCLOAK_OPERATOR_NAMESPACE',
    description: 'the namespace KeycloakRealms name in operatorRef to be handled by this operator (realms naming another are left alone)',
    defaultText: defaultKeycloakConfig.keycloakOperatorNamespace,
    parse: parseDns1123Label,
    helm: {
      path: 'keycloak.operatorNamespace',
      type: 'text',
      emptyMeansReleaseNamespace: true,
      comment: 'the namespace KeycloakRealms name in spec.operatorRef to be handled by this operator. Empty: the release namespace. Without adminSecret, the Roles for the admin Secret go here.',
    },
  },
  keycloakAdoptUnowned: {
    flags: '--keycloak-adopt-unowned',
    negation: { flags: '--no-keycloak-adopt-unowned', description: 'the default; the option is kept only to refuse the operator-wide switch' },
    env: 'KEYWARD_KEYCLOAK_ADOPT_UNOWNED',
    description: `no longer taken (refused when on): adoption is scoped with ${ADOPT_FLAG}`,
    defaultText: 'false',
    parse: parseRetiredAdoptSwitch,
    helm: {
      path: 'keycloak.adoptUnowned',
      type: 'boolean',
      default: false,
      comment: 'no longer taken (true fails the install): adoption is not operator-wide; use adoptUnownedNamespaces.',
      retired: 'no longer taken, adoption is not operator-wide; list the namespaces (or namespace/realm) that may adopt in keycloak.adoptUnownedNamespaces',
    },
  },
  keycloakAdoptUnownedNamespaces: {
    flags: `${ADOPT_FLAG} <list>`,
    env: 'KEYWARD_KEYCLOAK_ADOPT_UNOWNED_NAMESPACES',
    description: "who may take over an existing realm or client that no object owns, comma-separated: namespace (its objects, any realm) or namespace/realm (that realm only); Keycloak's master realm and own clients never",
    defaultText: 'none: a realm or client no object owns is refused (NotOwned)',
    parse: parseAdoptionScopes,
    helm: {
      path: 'keycloak.adoptUnownedNamespaces',
      type: { listOf: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(/[A-Za-z0-9]([A-Za-z0-9_-]*[A-Za-z0-9])?)?$' },
      comment: `who may take over an existing realm or client that no object owns, instead of being refused: "namespace" (its objects, in any realm) or "namespace/realm" (that realm only). Keycloak's master realm and its own clients are never taken over. Empty: nobody.`,
    },
  },
  keycloakNamespaceConcurrency: {
    flags: '--keycloak-namespace-concurrency <n>',
    env: 'KEYWARD_KEYCLOAK_NAMESPACE_CONCURRENCY',
    description: "reconciles of one namespace's realms or clients at once, at most (they share its rate limit); the rest wait their turn",
    defaultText: String(defaultKeycloakConfig.keycloakNamespaceConcurrency),
    parse: parsePositiveInteger,
    helm: {
      path: 'keycloak.namespaceConcurrency',
      type: 'number',
      comment: `reconciles of one namespace's realms or clients at once, per controller (they share that namespace's rate limit; the rest wait their turn). Empty: ${String(defaultKeycloakConfig.keycloakNamespaceConcurrency)}.`,
    },
  },
  keycloakAllowedServiceAccountRoles: {
    flags: '--keycloak-allowed-service-account-roles <list>',
    env: 'KEYWARD_KEYCLOAK_ALLOWED_SERVICE_ACCOUNT_ROLES',
    description: 'dangerous roles a client may still grant its service account, comma-separated: role (realm), client/role, or * for all',
    defaultText: 'none: realm admin, realm-management admin roles and impersonation are refused',
    parse: parseAllowedServiceAccountRoles,
    helm: {
      path: 'keycloak.allowedServiceAccountRoles',
      type: { listOf: '^(\\*|[^/\\s,]+(/[^/\\s,]+)?)$' },
      comment: 'dangerous roles a KeycloakClient may still grant its service account: "role" (a realm role), "client/role", or "*" for all. Empty: realm admin, the realm-management admin roles and impersonation are refused.',
    },
  },
  keycloakResyncPeriod: {
    flags: '--keycloak-resync-period <duration>',
    env: 'KEYWARD_KEYCLOAK_RESYNC_PERIOD',
    description: 'how often each realm and client is compared with Keycloak while nothing changed, the checks spread over the period: changes made in Keycloak by hand are set back (a DriftRepaired event each); 0 turns it off',
    defaultText: formatDuration(defaultKeycloakConfig.keycloakResyncPeriod),
    parse: parseResyncPeriod,
    format: formatResyncPeriod,
    helm: {
      path: 'keycloak.resyncPeriod',
      type: 'text',
      comment: `how often each realm and client is compared with Keycloak while nothing changed, the checks spread over the period, so changes made in Keycloak by hand are set back (a DriftRepaired event each); "0" turns it off. Empty: ${formatDuration(defaultKeycloakConfig.keycloakResyncPeriod)}.`,
    },
  },
  keycloakAllowJsPolicies: {
    flags: '--keycloak-allow-js-policies',
    negation: { flags: '--no-keycloak-allow-js-policies', description: 'stall a client that states a JavaScript authorization policy' },
    env: 'KEYWARD_KEYCLOAK_ALLOW_JS_POLICIES',
    description: 'let a client state JavaScript authorization policies (code run inside Keycloak; the server needs a script provider for them)',
    defaultText: String(defaultKeycloakConfig.keycloakAllowJsPolicies),
    parse: parseBoolean,
    helm: {
      path: 'keycloak.allowJsPolicies',
      type: 'boolean',
      default: defaultKeycloakConfig.keycloakAllowJsPolicies,
      comment: 'let a KeycloakClient state JavaScript authorization policies (code run inside Keycloak, which needs a deployed script provider for them). false: such a client is Stalled.',
    },
  },
} satisfies ControllerModule<never, never, KeycloakConfig, never>['options'];

/** Reading the admin Secret, where the operator runs, and watching it while objects wait on it. */
const adminSecretRule: RbacRule<KeycloakConfig> = {
  apiGroups: [''],
  resources: ['secrets'],
  verbs: ['get', 'list', 'watch'],
  // The admin Secret's namespace when one is named, else the operator's.
  scope: { namespaceOf: ['keycloakAdminSecret', 'keycloakOperatorNamespace'] },
};

/** The KeycloakRealm controller with its options, permissions and CRD, for the operator. */
export const keycloakRealmModule = defineControllerModule({
  definition: keycloakRealmController,
  defaultConfig: defaultKeycloakConfig,
  options: keycloakOptions,
  rbac: [
    // patch: the finalizer. Status is a merge patch of the status subresource.
    { apiGroups: [GROUP], resources: ['keycloakrealms'], verbs: ['get', 'list', 'watch', 'patch'], scope: 'watched' },
    { apiGroups: [GROUP], resources: ['keycloakrealms/status'], verbs: ['patch'], scope: 'watched' },
    // The Secrets a realm names (its SMTP password), watched in its namespace while a realm names one.
    { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch'], scope: 'watched' },
    adminSecretRule,
  ],
  crds: [keycloakRealmCrd],
});

/** The KeycloakClient controller with its options, permissions and CRD, for the operator. */
export const keycloakClientModule = defineControllerModule({
  definition: keycloakClientController,
  defaultConfig: defaultKeycloakConfig,
  options: keycloakOptions,
  rbac: [
    { apiGroups: [GROUP], resources: ['keycloakclients'], verbs: ['get', 'list', 'watch', 'patch'], scope: 'watched' },
    { apiGroups: [GROUP], resources: ['keycloakclients/status'], verbs: ['patch'], scope: 'watched' },
    // The realm object a client names: its grants and realm name.
    { apiGroups: [GROUP], resources: ['keycloakrealms'], verbs: ['get', 'list', 'watch'], scope: 'watched' },
    // The credentials Secret (server-side apply is a patch) and a client secret the spec provides.
    { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch', 'create', 'patch', 'delete'], scope: 'watched' },
    adminSecretRule,
  ],
  crds: [keycloakClientCrd],
});
