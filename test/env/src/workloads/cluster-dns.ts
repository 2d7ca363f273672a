import { createSocket, type Socket } from 'node:dgram';
import { answer, readQuestion, RECORD_TYPE, RESPONSE_CODE, type Question } from './dns-message.js';

/** A Service's ClusterIP, undefined when there is no such Service or it has none (headless). */
export type ServiceAddress = (namespace: string, name: string) => Promise<string | undefined>;

export interface ClusterDnsOptions {
  readonly address: string;
  readonly port: number;
  readonly clusterDomain: string;
  readonly serviceAddress: ServiceAddress;
  /** Where names outside the cluster domain go, as `host:port`; without one they are refused. */
  readonly upstream?: { readonly address: string; readonly port: number } | undefined;
  readonly log: (line: string) => void;
}

const UPSTREAM_TIMEOUT_MS = 2_000;

/**
 * What a pod asks, answered as cluster DNS does: `<service>.<namespace>.svc.<domain>` is the Service's ClusterIP,
 * any other name in the cluster domain does not exist (a pod's resolver tries its search suffixes first), and
 * every other name is the upstream resolver's to answer.
 */
export async function answerFor(question: Question, options: Pick<ClusterDnsOptions, 'clusterDomain' | 'serviceAddress'>): Promise<Buffer | 'upstream'> {
  const { name, type } = question;
  const domain = options.clusterDomain;
  if (name !== domain && !name.endsWith(`.${domain}`)) return 'upstream';
  const labels = name === domain ? [] : name.slice(0, -domain.length - 1).split('.');
  const [service, namespace, svc] = labels;
  if (labels.length !== 3 || svc !== 'svc' || service === undefined || namespace === undefined) return answer(question, RESPONSE_CODE.nameError);
  const address = await options.serviceAddress(namespace, service);
  if (address === undefined) return answer(question, RESPONSE_CODE.nameError);
  // The name exists: an A question gets its address; any other type an empty answer (IPv4 only here).
  return answer(question, RESPONSE_CODE.noError, type === RECORD_TYPE.A ? [address] : []);
}

/** Sends `message` to the upstream resolver and resolves with its answer, or undefined after a timeout. */
function askUpstream(message: Buffer, upstream: { readonly address: string; readonly port: number }): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const socket = createSocket('udp4');
    const done = (reply: Buffer | undefined): void => {
      clearTimeout(timer);
      socket.close();
      resolve(reply);
    };
    const timer = setTimeout(() => { done(undefined); }, UPSTREAM_TIMEOUT_MS);
    socket.once('message', (reply) => { done(reply); });
    socket.once('error', () => { done(undefined); });
    socket.send(message, upstream.port, upstream.address);
  });
}

/** Serves DNS over UDP on `address:port` until the returned socket is closed. */
export async function serveClusterDns(options: ClusterDnsOptions): Promise<Socket> {
  const socket = createSocket('udp4');
  socket.on('message', (message, from) => {
    const question = readQuestion(message);
    if (question === undefined) return;
    const reply = async (): Promise<Buffer | undefined> => {
      try {
        const local = await answerFor(question, options);
        if (local !== 'upstream') return local;
        if (options.upstream === undefined) return answer(question, RESPONSE_CODE.serverFailure);
        return (await askUpstream(message, options.upstream)) ?? answer(question, RESPONSE_CODE.serverFailure);
      } catch (error) {
        options.log(`${question.name}: ${error instanceof Error ? error.message : String(error)}`);
        return answer(question, RESPONSE_CODE.serverFailure);
      }
    };
    void reply().then((buffer) => { if (buffer !== undefined) socket.send(buffer, from.port, from.address); });
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(options.port, options.address, () => { socket.off('error', reject); resolve(); });
  });
  return socket;
}

/** The first `nameserver` of a resolv.conf, as the upstream resolver. */
export function upstreamOf(resolvConf: string): { readonly address: string; readonly port: number } | undefined {
  const address = /^\s*nameserver\s+(\d+\.\d+\.\d+\.\d+)\s*$/m.exec(resolvConf)?.[1];
  return address === undefined ? undefined : { address, port: 53 };
}
