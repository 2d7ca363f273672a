import { describe, expect, it } from '@jest/globals';
import { parseRunConfig, type OperatorConfig } from '../src/config.js';
import { listenAddress, servedUrl, startDetails } from '../src/start-line.js';

function config(argv: readonly string[]): OperatorConfig {
  const parsed = parseRunConfig(argv, {}, { serviceAccountNamespace: 'keyward-system' });
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.config;
}

const facts = { version: '1.2.3', server: 'https://10.0.0.1:443', identity: 'keyward-abc-1f2e3d' };

describe('the start line', () => {
  it('names the version, what runs, the API server, the Lease, and where the metrics and probes are served', () => {
    expect(startDetails(config(['--controllers', 'apikey-enforcement', '--namespaces', 'a,b']), { ...facts, metricsOverHttps: true })).toEqual({
      version: '1.2.3',
      controllers: ['apikey-enforcement'],
      namespaces: ['a', 'b'],
      server: 'https://10.0.0.1:443',
      metrics: 'https://127.0.0.1:8080/metrics',
      health: 'http://127.0.0.1:8081/healthz',
      leaderElection: 'keyward-system/keyward-leader',
      identity: 'keyward-abc-1f2e3d',
    });
  });

  it('names plain HTTP metrics, no leader election, and disabled probes as they are', () => {
    const details = startDetails(config(['--no-leader-elect', '--no-metrics-secure', '--health-bind-address', '0']), { ...facts, metricsOverHttps: false });
    expect(details).toMatchObject({ metrics: 'http://127.0.0.1:8080/metrics', health: 'disabled', leaderElection: 'off' });
  });

  it('gives the probes the metrics\' scheme when one address serves both', () => {
    const shared = config(['--metrics-bind-address', ':9443', '--health-bind-address', ':9443']);
    expect(startDetails(shared, { ...facts, metricsOverHttps: true })).toMatchObject({ metrics: 'https://*:9443/metrics', health: 'https://*:9443/healthz' });
  });
});

describe('addresses', () => {
  it('as the Manager listens on them: host:port, :port for every interface, [v6]:port, 0 for none', () => {
    expect(listenAddress({ host: '127.0.0.1', port: 8080 })).toBe('127.0.0.1:8080');
    expect(listenAddress({ host: undefined, port: 8080 })).toBe(':8080');
    expect(listenAddress({ host: 'fd00::1', port: 8080 })).toBe('[fd00::1]:8080');
    expect(listenAddress('disabled')).toBe('0');
  });

  it('as URLs: * for every interface, brackets around IPv6', () => {
    expect(servedUrl({ host: undefined, port: 8081 }, 'http', '/healthz')).toBe('http://*:8081/healthz');
    expect(servedUrl({ host: 'fd00::1', port: 8080 }, 'https', '/metrics')).toBe('https://[fd00::1]:8080/metrics');
    expect(servedUrl('disabled', 'https', '/metrics')).toBe('disabled');
  });
});
