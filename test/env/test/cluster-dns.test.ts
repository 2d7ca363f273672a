import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Socket } from 'node:dgram';
import { Resolver } from 'node:dns/promises';
import { serveClusterDns, upstreamOf, type ServiceAddress } from '../src/workloads/cluster-dns.js';
import { freeLoopbackPort } from '../src/ports.js';

const services: Readonly<Record<string, string>> = { 'identity/keystone': '10.0.0.7', 'default/kubernetes': '10.0.0.1' };
const serviceAddress: ServiceAddress = (namespace, name) => Promise.resolve(services[`${namespace}/${name}`]);
const silent = (): void => undefined;

let cluster: Socket;
let upstream: Socket;
const resolver = new Resolver({ timeout: 2_000, tries: 1 });

beforeAll(async () => {
  // The upstream resolver is another instance, answering for a domain of its own.
  const upstreamPort = await freeLoopbackPort();
  upstream = await serveClusterDns({ address: '127.0.0.1', port: upstreamPort, clusterDomain: 'example.test', serviceAddress: () => Promise.resolve('192.0.2.9'), log: silent });
  const port = await freeLoopbackPort();
  cluster = await serveClusterDns({ address: '127.0.0.1', port, clusterDomain: 'cluster.local', serviceAddress, upstream: { address: '127.0.0.1', port: upstreamPort }, log: silent });
  resolver.setServers([`127.0.0.1:${String(port)}`]);
});

afterAll(() => {
  cluster.close();
  upstream.close();
});

describe('the tier\'s cluster DNS', () => {
  it('answers a Service name with its ClusterIP, whatever its case', async () => {
    expect(await resolver.resolve4('keystone.identity.svc.cluster.local')).toEqual(['10.0.0.7']);
    expect(await resolver.resolve4('Kubernetes.Default.SVC.cluster.local')).toEqual(['10.0.0.1']);
  });

  it('says a name in the cluster domain that names no Service does not exist, so a resolver tries its next suffix', async () => {
    await expect(resolver.resolve4('keystone.identity.svc.cluster.local.identity.svc.cluster.local')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    await expect(resolver.resolve4('glance.identity.svc.cluster.local')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    await expect(resolver.resolve4('identity.pod.cluster.local')).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  it('answers an IPv6 question for a Service with no records rather than no name', async () => {
    await expect(resolver.resolve6('keystone.identity.svc.cluster.local')).rejects.toMatchObject({ code: 'ENODATA' });
  });

  it('passes every other name to the upstream resolver and returns its answer', async () => {
    expect(await resolver.resolve4('www.demo.svc.example.test')).toEqual(['192.0.2.9']);
  });

  it('takes the first nameserver of a resolv.conf as its upstream', () => {
    expect(upstreamOf('search example.org\nnameserver 10.255.255.53\nnameserver 8.8.8.8\n')).toEqual({ address: '10.255.255.53', port: 53 });
    expect(upstreamOf('nameserver ::1\n')).toBeUndefined();
  });
});
