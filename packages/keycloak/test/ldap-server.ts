// A throwaway OpenLDAP server (Debian's slapd) on a free loopback port, for the tests of a realm's LDAP user
// federation: its own config and database in a temporary folder, seeded with slapadd before it starts, a base
// DN with an organisational unit of people, and an admin bind DN whose password the test chooses.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@keyward/test-env';

export const LDAP_BASE_DN = 'dc=example,dc=org';
export const LDAP_PEOPLE_DN = `ou=people,${LDAP_BASE_DN}`;
export const LDAP_ADMIN_DN = `cn=admin,${LDAP_BASE_DN}`;

/** A person in the directory, under LDAP_PEOPLE_DN. */
export interface LdapPerson {
  readonly uid: string;
  readonly givenName: string;
  readonly sn: string;
  readonly mail: string;
}

export interface LdapServer {
  /** `ldap://127.0.0.1:<port>`. */
  readonly url: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => { resolve(); }));
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

function config(dir: string, adminPassword: string): string {
  const schemas = ['core', 'cosine', 'inetorgperson', 'nis'].map((schema) => `include /etc/ldap/schema/${schema}.schema`);
  return [
    ...schemas,
    'modulepath /usr/lib/ldap',
    'moduleload back_mdb',
    `pidfile ${join(dir, 'slapd.pid')}`,
    'database mdb',
    'maxsize 10485760',
    `suffix "${LDAP_BASE_DN}"`,
    `rootdn "${LDAP_ADMIN_DN}"`,
    `rootpw ${adminPassword}`,
    `directory ${join(dir, 'db')}`,
    '',
  ].join('\n');
}

function seed(people: readonly LdapPerson[]): string {
  const entries = [
    [`dn: ${LDAP_BASE_DN}`, 'objectClass: dcObject', 'objectClass: organization', 'o: Example', 'dc: example'],
    [`dn: ${LDAP_PEOPLE_DN}`, 'objectClass: organizationalUnit', 'ou: people'],
    ...people.map((p) => [`dn: uid=${p.uid},${LDAP_PEOPLE_DN}`, 'objectClass: inetOrgPerson', `uid: ${p.uid}`, `cn: ${p.givenName} ${p.sn}`, `givenName: ${p.givenName}`, `sn: ${p.sn}`, `mail: ${p.mail}`]),
  ];
  return entries.map((lines) => lines.join('\n')).join('\n\n') + '\n';
}

/** Whether slapd answers on `port`: a TCP connection is accepted. */
function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => { resolve(false); });
  });
}

/** Starts slapd with `people` under LDAP_PEOPLE_DN and LDAP_ADMIN_DN bound by `adminPassword`. */
export async function startLdapServer(adminPassword: string, people: readonly LdapPerson[]): Promise<LdapServer> {
  const dir = await mkdtemp(join(tmpdir(), 'keyward-slapd-'));
  await mkdir(join(dir, 'db'));
  const conf = join(dir, 'slapd.conf');
  await writeFile(conf, config(dir, adminPassword), { mode: 0o600 });
  await writeFile(join(dir, 'seed.ldif'), seed(people));
  const loaded = spawnSync('slapadd', ['-f', conf, '-l', join(dir, 'seed.ldif')], { encoding: 'utf8' });
  if (loaded.status !== 0) throw new Error(`slapadd failed (${String(loaded.status)}): ${loaded.stderr}`);
  const port = await freePort();
  const url = `ldap://127.0.0.1:${String(port)}`;
  // -d keeps slapd in the foreground, so it is this process's child and stops with it.
  const child: ChildProcess = spawn('slapd', ['-f', conf, '-h', `${url}/`, '-d', '0'], { stdio: 'ignore' });
  let exited = false;
  child.once('exit', () => { exited = true; });
  await waitFor(async () => (await answers(port)) ? true : undefined, {
    what: `slapd on ${url}`,
    timeoutMs: 20_000,
    abortIf: () => { if (exited) throw new Error('slapd exited'); },
  });
  return {
    url,
    stop: async () => {
      if (!exited) {
        const gone = new Promise<void>((resolve) => child.once('exit', () => { resolve(); }));
        child.kill('SIGTERM');
        await gone;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
