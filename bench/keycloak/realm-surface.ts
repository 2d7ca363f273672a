// One KeycloakRealm that states the whole realm surface at size (20 authentication flows, 10 identity
// providers, 50 nested groups with role mappings, 200 realm roles, bindings, required actions, client scopes
// with scope mappings, default groups and roles, a client profile and policy), converged by the realm
// controller wired as the operator wires it (default rate limits), from the controller's start until the
// realm is Ready; then two reconciles of the converged realm. Keycloak requests are counted by the runtime's
// HTTP observer and told apart by field group, reads and writes.
// Targets: the realm converges (Ready); each resync makes 0 Keycloak writes and 0 API writes, and the second
// reads what the first did.
import { loadavg } from 'node:os';
import { coreTypes } from '@keyward/kernel';
import { KubeClient } from '@keyward/runtime/io';
import type { ReconcileResult } from '@keyward/runtime/controller';
import { REALM_SECRET_LABEL, REALM_SECRET_LABEL_VALUE, keycloakRealmType } from '@keyward/keycloak';
import { defaultKeycloakRateLimits, keycloakRateLimiter } from '@keyward/keycloak/io';
import { requestsDuring } from '../support/api-server-requests.js';
import { difference, type Counts } from '../support/counts.js';
import { createNamespace, startBenchEnvironment } from '../support/environment.js';
import { waitSettled } from '../support/idle.js';
import { measured, rounded, timed, within } from '../support/timing.js';
import { whenCount } from '../support/watch.js';
import { byFieldGroup } from './field-groups.js';
import { KeycloakTally, summary } from './requests.js';
import { createRealmObject, isReady, keycloakConfig, keycloakControllers } from './setup.js';

const NAMESPACE = 'realm-surface';
const REALM = 'surface';
const ROLES = 200;
/** Every COMPOSITE_EVERY-th role is composed of the roles just before it. */
const COMPOSITE_EVERY = 10;
const TEAMS = 10;
const ORGANIZATIONS = 5;
const CONVERGE_TIMEOUT_MS = 20 * 60_000;
/** The operator's default reconciles at once per controller. */
const CONCURRENCY = 4;
const IDP_SECRET = 'idp-oidc-01';

const roleName = (i: number): string => `role-${String(i).padStart(3, '0')}`;
const two = (i: number): string => String(i).padStart(2, '0');

/** 200 roles, each tenth composed of the five before it (some also of a client role), some with attributes. */
function realmRoles(): unknown[] {
  return Array.from({ length: ROLES }, (_, index) => {
    const i = index + 1;
    const composite = i % COMPOSITE_EVERY === 0;
    return {
      name: roleName(i),
      description: `role ${String(i)}`,
      ...(i % 4 === 0 ? { attributes: { tier: String(i % 3) } } : {}),
      ...(composite ? { composites: { realm: [1, 2, 3, 4, 5].map((back) => roleName(i - back)), ...(i % 50 === 0 ? { clients: { account: ['view-profile'] } } : {}) } } : {}),
    };
  });
}

/** 50 groups: 10 teams, each with dev (with leads below it), ops and qa; realm and client roles granted. */
function groups(): unknown[] {
  return Array.from({ length: TEAMS }, (_, index) => {
    const team = index + 1;
    const role = (offset: number): string => roleName(team * 10 + offset);
    return {
      name: `team-${two(team)}`,
      attributes: { costCenter: `cc-${two(team)}` },
      realmRoles: [role(0)],
      subGroups: [
        { name: 'dev', realmRoles: [role(1), role(2)], subGroups: [{ name: 'leads', realmRoles: [role(3)] }] },
        { name: 'ops', realmRoles: [role(4)], clientRoles: { broker: ['read-token'] } },
        { name: 'qa', realmRoles: [role(5)] },
      ],
    };
  });
}

const step = (authenticator: string, requirement: string, config?: unknown): unknown => ({ authenticator, requirement, ...(config === undefined ? {} : { config }) });

/**
 * 20 flows: five copies of built-ins left as copied, two copies with their steps listed, ten login flows
 * with a sub-flow (three configure the identity-provider redirector), two client flows, one direct grant.
 */
function authenticationFlows(): unknown[] {
  const copies = [['kw browser copy', 'browser'], ['kw direct grant copy', 'direct grant'], ['kw registration copy', 'registration'], ['kw reset copy', 'reset credentials'], ['kw first broker copy', 'first broker login']]
    .map(([alias, from]) => ({ alias, copyFrom: from }));
  // A copy names the sub-flows it copied "<alias> <their alias>".
  const slimCopies = ['kw browser slim', 'kw browser lean'].map((alias) => ({
    alias, copyFrom: 'browser', executions: [step('auth-cookie', 'ALTERNATIVE'), { subFlow: { alias: `${alias} forms` }, requirement: 'ALTERNATIVE' }],
  }));
  const logins = Array.from({ length: 10 }, (_, index) => {
    const alias = `kw login ${two(index + 1)}`;
    const redirector = index < 3 ? { alias: `kw-redirect-${two(index + 1)}`, config: { defaultProvider: `oidc-${two(index + 1)}` } } : undefined;
    return {
      alias,
      description: `login flow ${String(index + 1)}`,
      executions: [
        step('auth-cookie', 'ALTERNATIVE'),
        step('identity-provider-redirector', 'ALTERNATIVE', redirector),
        { subFlow: { alias: `${alias} forms`, description: 'password and OTP', executions: [step('auth-username-password-form', 'REQUIRED'), step('auth-otp-form', 'REQUIRED')] }, requirement: 'ALTERNATIVE' },
      ],
    };
  });
  const clientFlows = [
    { alias: 'kw clients', providerId: 'client-flow', executions: [step('client-secret', 'ALTERNATIVE'), step('client-jwt', 'ALTERNATIVE')] },
    { alias: 'kw clients secret', providerId: 'client-flow', executions: [step('client-secret', 'REQUIRED')] },
  ];
  const directGrant = { alias: 'kw direct grant', executions: [step('direct-grant-validate-username', 'REQUIRED'), step('direct-grant-validate-password', 'REQUIRED')] };
  return [...copies, ...slimCopies, ...logins, ...clientFlows, directGrant];
}

const upstream = (name: string) => ({
  authorizationUrl: `https://${name}.example.com/auth`, tokenUrl: `https://${name}.example.com/token`, clientId: `${REALM}-broker`, clientAuthMethod: 'client_secret_post', defaultScope: 'openid email', syncMode: 'IMPORT',
});

const attributeMapper = (name: string, value: string) => ({ name, identityProviderMapper: 'hardcoded-attribute-idp-mapper', config: { attribute: name, 'attribute.value': value, syncMode: 'INHERIT' } });

/** 10 providers: six OIDC (the first with its client secret from a Secret), two Keycloak OIDC, two SAML; four with mappers. */
function identityProviders(): unknown[] {
  const oidc = Array.from({ length: 6 }, (_, index) => {
    const alias = `oidc-${two(index + 1)}`;
    return {
      alias, providerId: 'oidc', displayName: `OIDC ${String(index + 1)}`, trustEmail: index % 2 === 0, config: upstream(alias),
      ...(index === 0 ? { configSecrets: { clientSecret: { name: IDP_SECRET, key: 'client-secret' } } } : {}),
      ...(index < 3 ? { mappers: [attributeMapper('department', `dept-${String(index)}`), { name: 'email', identityProviderMapper: 'oidc-user-attribute-idp-mapper', config: { claim: 'email', 'user.attribute': 'email', syncMode: 'FORCE' } }] } : {}),
    };
  });
  const keycloakOidc = ['kc-01', 'kc-02'].map((alias, index) => ({
    alias, providerId: 'keycloak-oidc', displayName: `Keycloak ${String(index + 1)}`, config: upstream(alias), ...(index === 0 ? { firstBrokerLoginFlowAlias: 'kw first broker copy' } : {}),
  }));
  const saml = ['saml-01', 'saml-02'].map((alias, index) => ({
    alias, providerId: 'saml', displayName: `SAML ${String(index + 1)}`,
    config: { singleSignOnServiceUrl: `https://${alias}.example.com/sso`, nameIDPolicyFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent' },
    ...(index === 0 ? { mappers: [attributeMapper('partner', alias)] } : {}),
  }));
  return [...oidc, ...keycloakOidc, ...saml];
}

/** Five organizations, each with two domains and one of the OIDC providers linked. */
function organizations(): unknown[] {
  return Array.from({ length: ORGANIZATIONS }, (_, index) => {
    const alias = `org-${two(index + 1)}`;
    return {
      name: `Organization ${String(index + 1)}`, alias, description: `Customer ${String(index + 1)}`,
      domains: [{ name: `${alias}.example.com`, verified: true }, { name: `${alias}.example.org` }],
      attributes: { tier: [index % 2 === 0 ? 'gold' : 'silver'] },
      identityProviders: [{ alias: `oidc-${two(index + 1)}` }],
    };
  });
}

function realmSpec(): Record<string, unknown> {
  return {
    displayName: 'Realm surface benchmark',
    realmRoles: realmRoles(),
    clientScopes: [
      { name: 'kw-api', protocolMappers: [{ name: 'audience', protocolMapper: 'oidc-audience-mapper', config: { 'included.custom.audience': 'kw-api' } }] },
      { name: 'kw-reports' },
    ],
    scopeMappings: [
      { clientScope: 'kw-api', realmRoles: [roleName(1), roleName(2)] },
      { clientScope: 'kw-reports', realmRoles: [roleName(3)], clientRoles: { 'realm-management': ['view-users'] } },
    ],
    groups: groups(),
    defaultGroups: ['/team-01', '/team-02/dev'],
    defaultRoles: { realmRoles: [roleName(1)] },
    clientProfiles: [{ name: 'pkce', description: 'PKCE for all', executors: [{ executor: 'pkce-enforcer', configuration: { 'auto-configure': true } }] }],
    clientPolicies: [{ name: 'confidential-pkce', conditions: [{ condition: 'client-access-type', configuration: { type: ['confidential'] } }], profiles: ['pkce'] }],
    authenticationFlows: authenticationFlows(),
    flowBindings: { browserFlow: 'kw login 01', directGrantFlow: 'kw direct grant', clientAuthenticationFlow: 'kw clients', resetCredentialsFlow: 'kw reset copy', firstBrokerLoginFlow: 'kw first broker copy' },
    requiredActions: [{ alias: 'CONFIGURE_TOTP', defaultAction: true, priority: 5 }, { alias: 'UPDATE_PASSWORD', enabled: true, priority: 10 }, { alias: 'delete_account', enabled: true }],
    identityProviders: identityProviders(),
    organizationsEnabled: true,
    organizations: organizations(),
  };
}

/** Keycloak requests between two snapshots: totals, and reads and writes by field group. */
function requestsOf(after: Counts, before: Counts) {
  const counted = difference(after, before);
  const { reads, writes, tokens, failed, byRequest } = summary(counted);
  return { reads, writes, tokens, failed, byFieldGroup: byFieldGroup(counted), byRequest };
}

const environment = await startBenchEnvironment({ keystone: false, keycloak: true });
const setup = new KubeClient(environment.kubeConfig());
try {
  const config = await keycloakConfig(setup, environment);
  await createNamespace(setup, NAMESPACE);
  await setup.create({ type: coreTypes.secret, namespace: NAMESPACE, name: IDP_SECRET }, {
    metadata: { name: IDP_SECRET, labels: { [REALM_SECRET_LABEL]: REALM_SECRET_LABEL_VALUE } },
    stringData: { 'client-secret': 'benchmark-broker-secret' },
  });
  await createRealmObject(setup, NAMESPACE, REALM, realmSpec());

  const tally = new KeycloakTally();
  const results = new Map<ReconcileResult, number>();
  const controllers = keycloakControllers(environment, config, {
    limiter: keycloakRateLimiter(), concurrency: CONCURRENCY, keycloakObserver: tally.observer,
    observer: { onReconcile: (controller, result) => { if (controller === 'keycloak-realm') results.set(result, (results.get(result) ?? 0) + 1); } },
  });
  const ready = await whenCount(setup, { type: keycloakRealmType, namespace: NAMESPACE }, 1, isReady);
  try {
    const loadBefore = loadavg();
    const span = await measured(async () => {
      await controllers.realms.start();
      await within(ready.reached, CONVERGE_TIMEOUT_MS, 'the realm to be Ready');
    });
    const atReady = tally.snapshot();
    const reconcilesUntilReady = Object.fromEntries(results);
    await waitSettled(controllers.realms);
    const settled = tally.snapshot();

    /** A reconcile of the converged realm, as a resync runs it: what it planned, sent and wrote. */
    const resync = async () => {
      const before = tally.snapshot();
      const { result, requests } = await requestsDuring(environment.info.kubernetes, [keycloakRealmType.plural], async () => {
        let reconcile: Awaited<ReturnType<typeof controllers.realms.reconcileKey>> | undefined;
        const seconds = await timed(async () => { reconcile = await controllers.realms.reconcileKey(`${NAMESPACE}/${REALM}`); });
        return { seconds, reconcile };
      });
      return {
        seconds: rounded(result.seconds, 2),
        result: result.reconcile?.result,
        plannedSteps: (result.reconcile?.plan?.steps ?? []).map((planned) => `${planned.action.kind}: ${planned.reason}`),
        keycloak: requestsOf(tally.snapshot(), before),
        apiServer: { writes: requests.writes, reads: requests.reads },
      };
    };
    const first = await resync();
    const second = await resync();
    const untilReady = requestsOf(atReady, {});
    const limits = defaultKeycloakRateLimits.tenant;
    const admin = untilReady.reads + untilReady.writes;

    console.log(JSON.stringify({
      benchmark: 'keycloak-realm-surface',
      size: { realmRoles: ROLES, compositeRoles: ROLES / COMPOSITE_EVERY, groups: TEAMS * 5, authenticationFlows: 20, identityProviders: 10, requiredActions: 3, clientScopes: 2, organizations: ORGANIZATIONS },
      concurrency: CONCURRENCY,
      limits: defaultKeycloakRateLimits,
      load: { before: loadBefore.map((n) => rounded(n, 2)), after: loadavg().map((n) => rounded(n, 2)) },
      firstConvergence: {
        seconds: rounded(span.seconds, 2),
        cpuSeconds: rounded(span.cpuSeconds, 2),
        // What the namespace's bucket alone allows: its burst at once, the rest at its rate.
        limiterFloorSeconds: rounded(Math.max(0, admin - limits.burst) / limits.ratePerSecond, 2),
        reconciles: reconcilesUntilReady,
        keycloak: untilReady,
      },
      afterReadyUntilSettled: requestsOf(settled, atReady),
      resyncs: [first, second],
      targets: { ready: true, resyncKeycloakWrites: 0, resyncApiWrites: 0, secondResyncReads: 'the same as the first' },
    }, null, 2));
  } finally {
    await ready.stop();
    await controllers.stop();
  }
} finally {
  setup.close();
  await environment.stop();
}
