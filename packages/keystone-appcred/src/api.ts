import * as t from 'io-ts';
import { DNS1123_LABEL_MAX_LENGTH, atMost, integerInRange, kubernetesName, minLengthArray, minLengthString, oneOf, patternedText, uniqueList, withDefault } from '@keyward/kernel/model';
import { type Condition, type ResourceType } from '@keyward/kernel';
import { type StoredMeta } from '@keyward/kernel/plan';

/** Secret key holding the application credential's ID (upstream's ACIDSecretKey). */
export const ACIDSecretKey = 'AC_ID';
/** Secret key holding the application credential's secret (upstream's ACSecretSecretKey). */
export const ACSecretSecretKey = 'AC_SECRET';

export const GROUP = 'keystone.openstack.org';
export const VERSION = 'v1beta1';

export const appCredType: ResourceType = {
  group: GROUP,
  version: VERSION,
  kind: 'KeystoneApplicationCredential',
  plural: 'keystoneapplicationcredentials',
  namespaced: true,
};

/** The KeystoneAPI resource of keystone-operator, read for the Keystone endpoint and its readiness. */
export const keystoneApiType: ResourceType = { group: GROUP, version: VERSION, kind: 'KeystoneAPI', plural: 'keystoneapis', namespaced: true };

/**
 * The Keystone resource of @keyward/keystone-service (a Keystone run by Keyward itself), read for its endpoint and
 * readiness when the namespace has no usable KeystoneAPI. Declared here, not imported: this package depends on
 * no controller package, and reads the object field by field as it does another operator's.
 */
export const keystoneType: ResourceType = { group: 'keystone.openstack.c5c3.io', version: 'v1alpha1', kind: 'Keystone', plural: 'keystones', namespaced: true };

/** On the CR: deletion waits until its Secrets are released. */
export const CR_FINALIZER = 'openstack.org/applicationcredential';
/** On each credential Secret: it is not deleted while we still manage it. */
export const SECRET_PROTECTION_FINALIZER = 'openstack.org/ac-secret-protection';
/** A consumer marks a Secret it uses with `openstack.org/<consumer>-ac-consumer`. */
export const CONSUMER_FINALIZER = /^openstack\.org\/(.+)-ac-consumer$/;

/**
 * The Keystone name of a credential. On the CR: the name of the credential created last, written (with the
 * finalizer, in one patch) before it is created; on a credential Secret: the name of the credential it holds.
 * A name the CR carries that no Secret of the service carries is a creation that was interrupted.
 */
export const CREDENTIAL_NAME_ANNOTATION = 'keystone.keyward.io/credential-name';

export const LABEL_APPLICATION_CREDENTIALS = 'application-credentials';
export const LABEL_SERVICE = 'application-credential-service';

export const CONDITION_READY = 'Ready';
export const CONDITION_KEYSTONE_API_READY = 'KeystoneAPIReady';
export const CONDITION_AC_READY = 'KeystoneApplicationCredentialReady';

/** Keystone's service project and domain, where service users live. */
export const SERVICE_PROJECT = 'service';
export const SERVICE_DOMAIN = 'Default';

/**
 * The name of the KeystoneApplicationCredential a service's operator creates for it: `ac-<service>`.
 * Other operators (openstack-operator) use it to find the CR and read its status.
 */
export function getACCRName(service: string): string {
  return `ac-${service}`;
}

/** The service a CR is for: its name without the `ac-` prefix. */
export function serviceOf(crName: string): string {
  return crName.startsWith('ac-') ? crName.slice(3) : crName;
}

/**
 * The longest service name: every credential Secret of a service carries the name as a label value, which
 * holds at most 63 characters (this also keeps Secret and Keystone credential names within their limits).
 */
export const MAX_SERVICE_LENGTH = DNS1123_LABEL_MAX_LENGTH;

/**
 * Why a CR of this name manages no service, or undefined when it manages its own. Only the CR named
 * `ac-<service>` manages the credentials and Secrets of `<service>`: both `foo` and `ac-foo` would be for
 * service `foo`, and two CRs of one service revoke each other's credentials; consumers and the upstream
 * operators find a service's CR by this name (getACCRName), so it is the one that owns it. A service name too
 * long for a label could never have its Secret stored: each attempt would create a credential only to revoke it.
 */
export function unsupportedName(crName: string): string | undefined {
  const service = serviceOf(crName);
  if (!crName.startsWith('ac-') || service === '') {
    return `only the KeystoneApplicationCredential named ${getACCRName(service)} manages the credentials of service ${service}; ` +
      `this one (${crName}) is ignored, and its existing credentials and Secrets are left as they are`;
  }
  if (service.length > MAX_SERVICE_LENGTH) {
    return `the service name ${service} has ${String(service.length)} characters, more than the ${String(MAX_SERVICE_LENGTH)} of the label ` +
      'its credential Secrets carry; no credential is created for it';
  }
  return undefined;
}

export function managesService(crName: string): boolean {
  return unsupportedName(crName) === undefined;
}

/** The immutable Secret of one credential: `ac-<service>-<first 5 characters of its ID>-secret`. */
export function credentialSecretName(service: string, acID: string): string {
  return `ac-${service}-${acID.slice(0, 5)}-secret`;
}

export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * Keystone's own limits (its application credential schema): a service is an id string, a path starts with
 * "/" and has at most 225 characters, a role name at most 255 with something besides spaces. A credential that
 * breaks one is refused by Keystone on every try, so the CRD and the codec refuse it first.
 */
export const ACCESS_RULE_SERVICE = { maxLength: 64, pattern: '^[a-zA-Z0-9-]+$', says: 'letters, digits and -' } as const;
export const ACCESS_RULE_PATH = { maxLength: 225, pattern: '^/', says: 'starting with /' } as const;
export const ROLE_NAME = { maxLength: 255, pattern: '[^\\t\\n\\f\\r ]', says: 'not only spaces' } as const;
/**
 * The most roles and access rules a credential lists: at their longest, 100 of each keep the create request
 * far below Keystone's default request body limit (112 KiB), which answers 413 beyond it.
 */
export const MAX_ROLES = 100;
export const MAX_ACCESS_RULES = 100;

export const AccessRuleCodec = t.type({
  service: patternedText(ACCESS_RULE_SERVICE.maxLength, ACCESS_RULE_SERVICE.pattern, ACCESS_RULE_SERVICE.says),
  path: patternedText(ACCESS_RULE_PATH.maxLength, ACCESS_RULE_PATH.pattern, ACCESS_RULE_PATH.says),
  method: oneOf(HTTP_METHODS),
});

/**
 * The longest credential lifetime: 100 years. Keystone parses expires_at as a Python datetime (years up to
 * 9999, and only four-digit ones), so an unbounded lifetime either fails in Keystone or, beyond 275,760
 * years, cannot even be computed; 100 years is far beyond any sensible rotation and stays far inside both.
 */
export const MAX_EXPIRATION_DAYS = 36_500;

export const DEFAULT_EXPIRATION_DAYS = 365;
export const DEFAULT_GRACE_PERIOD_DAYS = 182;

/**
 * Keystone stores one row per role and per access rule of a credential: a repeat fails the whole create. The
 * CRD's list map key is the three fields, so two rules are the same only when each field is.
 */
const accessRuleKey = (rule: t.TypeOf<typeof AccessRuleCodec>): readonly string[] => [rule.method, rule.service, rule.path];

const SpecFields = t.intersection([
  t.type({
    secret: kubernetesName(),
    passwordSelector: minLengthString(1),
    userName: minLengthString(1),
    expirationDays: withDefault(integerInRange(2, MAX_EXPIRATION_DAYS), DEFAULT_EXPIRATION_DAYS),
    gracePeriodDays: withDefault(integerInRange(1, MAX_EXPIRATION_DAYS - 1), DEFAULT_GRACE_PERIOD_DAYS),
    roles: uniqueList(atMost(minLengthArray(patternedText(ROLE_NAME.maxLength, ROLE_NAME.pattern, ROLE_NAME.says), 1), MAX_ROLES)),
    unrestricted: withDefault(t.boolean, false),
  }),
  t.partial({ accessRules: uniqueList(atMost(t.array(AccessRuleCodec), MAX_ACCESS_RULES), accessRuleKey) }),
]);

/** Says the default too: `expirationDays: 30` alone is refused because of a grace period nobody wrote. */
export const GRACE_PERIOD_MESSAGE = `gracePeriodDays must be smaller than expirationDays (gracePeriodDays defaults to ${String(DEFAULT_GRACE_PERIOD_DAYS)}: set it when expirationDays is ${String(DEFAULT_GRACE_PERIOD_DAYS)} or less)`;

/** The spec, defaults applied; rejects gracePeriodDays >= expirationDays as the CRD's CEL rule does. */
export const SpecCodec = new t.Type<t.TypeOf<typeof SpecFields>, t.OutputOf<typeof SpecFields>>(
  'KeystoneApplicationCredentialSpec',
  (u): u is t.TypeOf<typeof SpecFields> => SpecFields.is(u) && u.gracePeriodDays < u.expirationDays,
  (u, c) => {
    const decoded = SpecFields.validate(u, c);
    if (decoded._tag === 'Left') return decoded;
    if (decoded.right.gracePeriodDays >= decoded.right.expirationDays) {
      return t.failure(decoded.right.gracePeriodDays, [...c, { key: 'gracePeriodDays', type: t.number, actual: decoded.right.gracePeriodDays }], GRACE_PERIOD_MESSAGE);
    }
    return decoded;
  },
  SpecFields.encode,
);

export type AppCredSpec = t.TypeOf<typeof SpecCodec>;
export type AccessRule = t.TypeOf<typeof AccessRuleCodec>;

/** Status as we write it and as upstream wrote it; every field optional so upstream's objects decode. */
// A type, not an interface: it is plain JSON data and goes into plan templates as is.
// eslint-disable-next-line @typescript-eslint/consistent-type-definitions
export type AppCredStatus = {
  readonly acID?: string;
  readonly secretName?: string;
  readonly previousSecretName?: string;
  readonly createdAt?: string;
  readonly expiresAt?: string;
  readonly rotationEligibleAt?: string;
  readonly lastRotated?: string;
  readonly observedGeneration?: number;
  readonly securityHash?: string;
  /**
   * The name of a credential being created, as Keyward recorded it before the name moved to the CR's
   * annotation (CREDENTIAL_NAME_ANNOTATION): read, cleaned up and cleared, no longer written.
   */
  readonly pendingACName?: string;
  readonly conditions?: readonly Condition[];
};

export interface KeystoneApplicationCredential {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: StoredMeta;
  readonly spec: AppCredSpec;
  readonly status: AppCredStatus;
  readonly [field: string]: unknown;
}
