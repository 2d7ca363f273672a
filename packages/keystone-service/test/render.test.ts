import { describe, expect, it } from '@jest/globals';
import { isRight } from 'fp-ts/lib/Either.js';
import { KeystoneSpecCodec } from '../src/spec.js';
import { apiPasteSections, pipeline } from '../src/paste.js';
import { configMapName, contentHash, policyYaml } from '../src/config-map.js';
import { keystoneConf } from '../src/keystone-conf.js';
import { renderIni } from '../src/ini.js';
import { type KeystoneSpec } from '../src/index.js';
import { baseSpec } from './fixtures.js';

function spec(extra: Record<string, unknown> = {}): KeystoneSpec {
  const decoded = KeystoneSpecCodec.decode({ ...baseSpec, ...extra });
  if (!isRight(decoded)) throw new Error('invalid test spec');
  return decoded.right;
}
const inputs = { namespace: 'identity', dbUsername: 'keystone', clusterDomain: 'cluster.local', hasPolicy: false };

describe('renderIni', () => {
  it.each([
    [{}, ''],
    [{ b: { y: '2', x: '1' }, DEFAULT: { a: '' } }, '[DEFAULT]\na = \n\n[b]\nx = 1\ny = 2\n'],
    [{ s: { k: ['1', '2'] } }, '[s]\nk = 1\nk = 2\n'],
  ])('renders %j', (sections, text) => {
    expect(renderIni(sections)).toBe(text);
  });
});

describe('keystone.conf', () => {
  it('has the database without its password, the key repositories and the fernet token provider', () => {
    const conf = keystoneConf(spec(), inputs);
    expect(conf).toContain('[database]\nconnection = mysql+pymysql://keystone@mariadb.db:3306/keystone?charset=utf8mb4\n');
    expect(conf).toContain('[fernet_tokens]\nkey_repository = /etc/keystone/fernet-keys/\nmax_active_keys = 3\n');
    expect(conf).toContain('[credential]\nkey_repository = /etc/keystone/credential-keys/\nprovider = fernet\n');
    expect(conf).toContain('[token]\nprovider = fernet\n');
    expect(conf).not.toContain('[cache]');
    expect(conf).not.toContain('oslo_policy');
  });

  it('has the cache from servers or a cluster', () => {
    expect(keystoneConf(spec({ cache: { servers: ['m1:11211', 'm2:11211'] } }), inputs)).toContain('[cache]\nbackend = dogpile.cache.pymemcache\nenabled = true\nmemcache_servers = m1:11211,m2:11211\n');
    expect(keystoneConf(spec({ cache: { clusterRef: { name: 'mc' } } }), inputs)).toContain('memcache_servers = mc.identity.svc.cluster.local:11211');
  });

  it('lets plugins add sections but not change ours, and extraConfig change anything', () => {
    const conf = keystoneConf(spec({
      plugins: [{ name: 'ldap', configSection: 'ldap', config: { url: 'ldap://x' } }, { name: 'bad', configSection: 'token', config: { provider: 'uuid', expiration: '600' } }],
      extraConfig: { token: { provider: 'jws' }, DEFAULT: { debug: 'true' } },
    }), { ...inputs, hasPolicy: true });
    expect(conf).toContain('[ldap]\nurl = ldap://x\n');
    expect(conf).toContain('[token]\nexpiration = 600\nprovider = jws\n');
    expect(conf).toContain('debug = true');
    expect(conf).toContain('[oslo_policy]\npolicy_file = /etc/keystone/keystone.conf.d/policy.yaml\n');
  });
});

describe('api-paste.ini', () => {
  const mw = (name: string, position: 'before' | 'after', filter?: string) => ({ name, filterFactory: `${name}.factory`, position, ...(filter === undefined ? {} : { filter }) });

  it('places middleware before or after a named filter, or around the whole base pipeline', () => {
    const order = pipeline([mw('audit', 'after', 'request_id'), mw('first', 'before'), mw('rate', 'before', 'request_id'), mw('last', 'after'), mw('rate2', 'before', 'request_id')]);
    expect(order.join(' ')).toBe('first cors sizelimit http_proxy_to_wsgi osprofiler url_normalize rate rate2 request_id audit build_auth_context token_auth json_body last public_service');
  });

  it('gives each middleware its factory, which config cannot replace', () => {
    const sections = apiPasteSections([{ ...mw('audit', 'after'), config: { 'paste.filter_factory': 'evil', level: 'info' } }]);
    expect(sections['filter:audit']).toEqual({ level: 'info', 'paste.filter_factory': 'audit.factory' });
    expect(sections['filter:cors']).toEqual({ use: 'egg:oslo.middleware#cors', oslo_config_project: 'keystone' });
    expect(sections['pipeline:public_api']?.['pipeline']).toMatch(/ audit public_service$/);
  });
});

describe('the ConfigMap name', () => {
  it('is <base>-<8 hex> of an unambiguous content hash', () => {
    expect(configMapName('keystone-config', { a: '1' })).toMatch(/^keystone-config-[0-9a-f]{8}$/);
    expect(configMapName('k', { a: '1' })).toBe(configMapName('k', { a: '1' }));
    expect(contentHash({ a: 'b\n1:c=1:d' })).not.toBe(contentHash({ a: 'b', c: 'd' }));
    expect(contentHash({ a: '1', b: '2' })).toBe(contentHash({ b: '2', a: '1' }));
  });

  it('policy rules are sorted YAML', () => {
    expect(policyYaml({ 'identity:list_users': 'role:admin', 'a:b': '' })).toBe('"a:b": ""\n"identity:list_users": "role:admin"\n');
  });
});
