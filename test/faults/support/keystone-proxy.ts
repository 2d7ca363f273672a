// A TCP proxy in front of Keystone that a scenario can take down and bring back, counting every connection.
//
// While "down" it accepts each connection and destroys it at once, so the client sees a reset ("socket hang
// up", ECONNRESET) much as when Keystone's process is gone. A closed port would be closer still (the kernel
// refuses with ECONNREFUSED), but the kernel counts nothing: accepting first is what lets every attempt be
// counted, and a reset is a transport error to the client just as a refusal is. The proxy also comes back at
// once, where Keystone itself takes seconds to start, so "the time until all are Ready" measures the operator.
import { connect, createServer, type Server, type Socket } from 'node:net';

/** One connection the proxy accepted. */
export interface ProxyConnection {
  /** performance.now() when it was accepted. */
  readonly atMs: number;
  /** Whether the proxy was down, so the connection was destroyed unanswered. */
  readonly refused: boolean;
}

export interface KeystoneProxy {
  /** Keystone's URL with the proxy's address: what the operator is given. */
  readonly url: string;
  /** Every connection accepted so far, in order. */
  readonly connections: readonly ProxyConnection[];
  /** From now on every connection is destroyed unanswered; open ones are cut too. */
  down(): void;
  /** From now on connections are forwarded to Keystone again. */
  up(): void;
  close(): Promise<void>;
}

/** Starts a proxy on a free loopback port, forwarding to the host and port of `keystoneUrl`. */
export async function startKeystoneProxy(keystoneUrl: string): Promise<KeystoneProxy> {
  const target = new URL(keystoneUrl);
  const connections: ProxyConnection[] = [];
  const open = new Set<Socket>();
  let isDown = false;

  const server: Server = createServer((client) => {
    connections.push({ atMs: performance.now(), refused: isDown });
    if (isDown) {
      client.destroy();
      return;
    }
    const upstream = connect({ host: target.hostname, port: Number(target.port) });
    open.add(client).add(upstream);
    const cut = (): void => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', cut).on('close', cut);
    upstream.on('error', cut).on('close', cut);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the Keystone proxy has no port');

  return {
    url: `${target.protocol}//127.0.0.1:${String(address.port)}${target.pathname}`,
    connections,
    down: () => {
      isDown = true;
      for (const socket of open) socket.destroy();
      open.clear();
    },
    up: () => {
      isDown = false;
    },
    close: () => new Promise<void>((resolve) => {
      for (const socket of open) socket.destroy();
      server.close(() => { resolve(); });
    }),
  };
}
