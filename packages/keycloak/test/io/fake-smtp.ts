// A minimal SMTP server for tests: it accepts AUTH PLAIN and any mail, and records the passwords it was
// given, so a test can see which SMTP password Keycloak actually holds.
import { createServer, type Server, type Socket } from 'node:net';

export interface FakeSmtp {
  readonly port: number;
  /** Passwords of the AUTH PLAIN logins so far. */
  readonly passwords: string[];
  close(): Promise<void>;
}

function passwordOfPlain(encoded: string): string {
  // AUTH PLAIN: base64 of "authzid\0user\0password".
  return Buffer.from(encoded, 'base64').toString('utf8').split('\0')[2] ?? '';
}

function converse(socket: Socket, passwords: string[]): void {
  let buffer = '';
  let inData = false;
  let awaitingPlain = false;
  const reply = (line: string): void => { socket.write(`${line}\r\n`); };
  reply('220 fake-smtp ready');
  socket.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (inData) {
        if (line === '.') { inData = false; reply('250 queued'); }
        continue;
      }
      if (awaitingPlain) { awaitingPlain = false; passwords.push(passwordOfPlain(line)); reply('235 authenticated'); continue; }
      const command = line.toUpperCase();
      if (command.startsWith('EHLO')) socket.write('250-fake-smtp\r\n250 AUTH PLAIN\r\n');
      else if (command.startsWith('AUTH PLAIN ')) { passwords.push(passwordOfPlain(line.slice('AUTH PLAIN '.length))); reply('235 authenticated'); }
      else if (command === 'AUTH PLAIN') { awaitingPlain = true; reply('334 '); }
      else if (command === 'DATA') { inData = true; reply('354 go on'); }
      else if (command === 'QUIT') { reply('221 bye'); socket.end(); }
      else reply('250 ok');
    }
  });
  socket.on('error', () => { socket.destroy(); });
}

export async function startFakeSmtp(): Promise<FakeSmtp> {
  const passwords: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    converse(socket, passwords);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the fake SMTP server has no port');
  return {
    port: address.port,
    passwords,
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => { resolve(); });
    }),
  };
}
