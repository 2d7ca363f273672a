import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadKubeConfig } from '../src/kubeconfig.js';

const TOKEN = 'token-that-must-never-be-printed';
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kubeconfig-test-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A kubeconfig file with one cluster at `server`, written to the test folder. */
function kubeconfig(name: string, server: string, extra: { skipTls?: boolean; currentContext?: string; certFile?: string } = {}): string {
  const file = join(dir, name);
  writeFileSync(file, [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- name: c1`,
    '  cluster:',
    `    server: ${server}`,
    ...(extra.skipTls === true ? ['    insecure-skip-tls-verify: true'] : []),
    'users:',
    '- name: u1',
    '  user:',
    `    token: ${TOKEN}`,
    ...(extra.certFile === undefined ? [] : [`    client-certificate: ${extra.certFile}`]),
    'contexts:',
    '- name: ctx',
    '  context: { cluster: c1, user: u1 }',
    `current-context: ${extra.currentContext ?? 'ctx'}`,
    '',
  ].join('\n'));
  return file;
}

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** The one line loadKubeConfig rejects with. */
async function problem(path: string | undefined, home = dir): Promise<string> {
  try {
    await loadKubeConfig(path, { places: { home, inCluster: false } });
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  return 'no problem';
}

describe('loadKubeConfig', () => {
  it('loads a usable kubeconfig', async () => {
    const config = await loadKubeConfig(kubeconfig('good', 'https://127.0.0.1:6443'), { places: { home: dir, inCluster: false } });
    expect(config.getCurrentCluster()?.server).toBe('https://127.0.0.1:6443');
  });

  it('uses the context --context names instead of the current one, and names the contexts there are when it is unknown', async () => {
    const path = kubeconfig('other-current', 'https://127.0.0.1:6443', { currentContext: 'elsewhere' });
    const config = await loadKubeConfig(path, { context: 'ctx', places: { home: dir, inCluster: false } });
    expect(config.getCurrentContext()).toBe('ctx');
    await expect(loadKubeConfig(path, { context: 'nope', places: { home: dir, inCluster: false } })).rejects.toThrow(/^kubeconfig .*other-current has no context "nope" \(it has: ctx\)$/);
  });

  it('says in one line which file is missing, which does not parse, and which names no usable cluster, never quoting a credential', async () => {
    const missing = join(dir, 'missing');
    const cases = [
      [missing, `kubeconfig ${missing} does not exist`],
      [file('bad-yaml', `users:\n- name: u1\n  user:\n    token: ${TOKEN}\n   bad: [\n`), /^kubeconfig .*bad-yaml is not valid YAML: .* \(line \d+\)$/],
      [file('empty', ''), /^kubeconfig .*empty is empty or not a kubeconfig$/],
      [kubeconfig('plain-http', 'http://localhost:8080'), /^kubeconfig .*plain-http: the server of cluster "c1" is plain HTTP \(http:\/\/localhost:8080\), which the Kubernetes client refuses unless insecure-skip-tls-verify is true; use its https:\/\/ address$/],
      [kubeconfig('no-context', 'https://127.0.0.1:6443', { currentContext: 'elsewhere' }), /^kubeconfig .*no-context: the current context "elsewhere" is not defined$/],
      [kubeconfig('no-cert', 'https://127.0.0.1:6443', { certFile: join(dir, 'no-such-cert.pem') }), /^kubeconfig .*no-cert: the connection settings or credentials of user "u1" cannot be used: ENOENT.*no-such-cert\.pem/],
    ] as const;
    for (const [path, expected] of cases) {
      const message = await problem(path);
      expect(message).toMatch(expected);
      expect(message).not.toContain('\n');
      expect(message).not.toContain(TOKEN);
    }
  });

  it('says so when there is no kubeconfig at all, instead of falling back to http://localhost:8080', async () => {
    const home = join(dir, 'empty-home');
    expect(await problem(undefined, home)).toBe(`no kubeconfig: ${join(home, '.kube', 'config')} does not exist and this is not a pod; give --kubeconfig <file> or set KUBECONFIG`);
  });

  it('accepts plain HTTP where TLS verification is off, as the client does', async () => {
    expect(await problem(kubeconfig('http-insecure', 'http://127.0.0.1:8080', { skipTls: true }))).toBe('no problem');
  });
});
