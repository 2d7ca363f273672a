import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sensitive } from '@keyward/kernel';
import { rememberSecret } from '@keyward/test-env';
import type { KeycloakAction, KeycloakCall } from '../../src/apis/keycloak/actions.js';
import { startFakeSmtp, type FakeSmtp } from './fake-smtp.js';
import { keycloakFixture, unique, writeSecret, type KeycloakFixture, type Outcome } from './keycloak-fixture.js';

// What Keycloak does with a realm's SMTP password, learnt here from the real server: an admin GET shows it
// masked; which password Keycloak holds is seen through "test SMTP connection" (which sends the stored one
// when given the mask) against a fake SMTP server that records the password it receives.

let fx: KeycloakFixture;
let smtp: FakeSmtp;
const cleanups: (() => Promise<unknown>)[] = [];
const MASK = '**********';

beforeAll(async () => {
  fx = await keycloakFixture('kcio-smtp');
  smtp = await startFakeSmtp();
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await smtp.close();
  fx.close();
});

const run = (action: KeycloakAction): Promise<Outcome> => fx.run(action);

/** An admin service account whose user has an e-mail address: "test SMTP connection" mails the caller. */
async function adminWithEmail(): Promise<KeycloakCall> {
  const clientId = unique('kcio-mailer');
  const secret = rememberSecret(unique('mailer-secret'));
  const created = (await run({ kind: 'keycloak.create', resource: { type: 'client', realm: 'master', clientId }, body: { clientId, publicClient: false, serviceAccountsEnabled: true, secret: sensitive(secret) }, ...fx.call() }));
  const id = String(created.outputs['id']);
  cleanups.push(() => run({ kind: 'keycloak.delete', resource: { type: 'client', realm: 'master', clientId, id }, ...fx.call() }));
  await run({ kind: 'keycloak.grantRoles', holder: { type: 'serviceAccount', client: { realm: 'master', clientId, id } }, roles: { realm: ['admin'], clients: {} }, ...fx.call() });
  const user = await fx.runtime.admin.send(fx.call(), { method: 'GET', path: `/realms/master/clients/${id}/service-account-user`, operation: 'get_service_account_user', description: 'read the mailer' });
  const userId = (user.body as { id: string }).id;
  await fx.runtime.admin.send(fx.call(), { method: 'PUT', path: `/realms/master/users/${userId}`, operation: 'update_user', description: 'give the mailer an e-mail', body: { email: `${clientId}@example.com`, emailVerified: true } });
  await writeSecret(fx.kube, fx.namespace, 'mailer', { 'client-id': clientId, 'client-secret': secret });
  return fx.call('mailer');
}

describe("a realm's SMTP password from a Secret, on a real Keycloak", () => {
  it('is set from the Secret, shown masked, kept by a PUT that sends the mask, and kept by a PUT without smtpServer', async () => {
    const mailer = await adminWithEmail();
    const password = rememberSecret(unique('smtp-password'));
    await writeSecret(fx.kube, fx.namespace, 'smtp', { password });
    const realm = unique('kcio');
    const smtpServer = { host: '127.0.0.1', port: String(smtp.port), from: 'keyward@example.com', auth: 'true', user: 'mailer' };
    await run({
      kind: 'keycloak.create',
      resource: { type: 'realm', realm },
      body: { realm, enabled: true, smtpServer },
      secretFields: { 'smtpServer.password': { kind: 'secretKey', namespace: fx.namespace, name: 'smtp', key: 'password' } },
      ...fx.call(),
    });
    cleanups.push(() => run({ kind: 'keycloak.delete', resource: { type: 'realm', realm }, ...fx.call() }));

    const stored = async (): Promise<{ readonly shown: unknown; readonly used: string | undefined }> => {
      const observed = await fx.runtime.queries({ caches: [] })['keycloak.realm']({ kind: 'keycloak.realm', realm, ...fx.call() });
      const shown = (observed?.realm['smtpServer'] as Record<string, unknown> | undefined)?.['password'];
      const before = smtp.passwords.length;
      await fx.runtime.admin.send(mailer, { method: 'POST', path: `/realms/${realm}/testSMTPConnection`, operation: 'test_smtp', description: 'test SMTP', body: { ...smtpServer, password: MASK } });
      return { shown, used: smtp.passwords.length > before ? smtp.passwords[smtp.passwords.length - 1] : undefined };
    };

    expect(await stored()).toEqual({ shown: MASK, used: password });

    // smtpServer is replaced whole by a PUT; the mask as its password keeps the stored one.
    await run({ kind: 'keycloak.update', resource: { type: 'realm', realm }, body: { smtpServer: { ...smtpServer, from: 'other@example.com', password: MASK } }, changed: ['smtpServer.from'], ...fx.call() });
    expect(await stored()).toEqual({ shown: MASK, used: password });

    // A PUT that leaves smtpServer out leaves it (and its password) alone.
    await run({ kind: 'keycloak.update', resource: { type: 'realm', realm }, body: { displayName: 'Mail' }, changed: ['displayName'], ...fx.call() });
    expect(await stored()).toEqual({ shown: MASK, used: password });
  });
});
