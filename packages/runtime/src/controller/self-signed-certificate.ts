import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { isIPv4 } from 'node:net';

/** A PEM certificate and its PEM (PKCS#8) private key, as node:tls takes them. */
export interface ServingCertificate {
  readonly cert: string;
  readonly key: string;
}

export interface SelfSignedOptions {
  /** The certificate's common name. */
  readonly commonName: string;
  /** Subject alternative names: DNS names, and IPv4 addresses (others are left out). */
  readonly hosts: readonly string[];
  readonly notBefore: Date;
  readonly validForDays: number;
}

// DER, the few shapes an X.509 certificate needs (ITU-T X.690).
function tlv(tag: number, content: Buffer): Buffer {
  const length = content.length;
  if (length < 0x80) return Buffer.concat([Buffer.from([tag, length]), content]);
  const bytes: number[] = [];
  for (let rest = length; rest > 0; rest >>= 8) bytes.unshift(rest & 0xff);
  return Buffer.concat([Buffer.from([tag, 0x80 | bytes.length, ...bytes]), content]);
}
const sequence = (...items: Buffer[]): Buffer => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]): Buffer => tlv(0x31, Buffer.concat(items));
const explicit = (number: number, content: Buffer): Buffer => tlv(0xa0 | number, content);
const octetString = (content: Buffer): Buffer => tlv(0x04, content);
const utf8String = (text: string): Buffer => tlv(0x0c, Buffer.from(text, 'utf8'));
const bitString = (content: Buffer): Buffer => tlv(0x03, Buffer.concat([Buffer.from([0]), content]));

function integer(value: Buffer): Buffer {
  // A leading 1 bit would make it negative.
  return tlv(0x02, (value[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), value]) : value);
}

function objectIdentifier(dotted: string): Buffer {
  const [first = 0, second = 0, ...rest] = dotted.split('.').map(Number);
  const bytes = [first * 40 + second];
  for (const arc of rest) {
    const groups = [arc & 0x7f];
    for (let value = arc >>> 7; value > 0; value >>>= 7) groups.unshift((value & 0x7f) | 0x80);
    bytes.push(...groups);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** UTCTime (YYMMDDHHMMSSZ) up to 2049, GeneralizedTime after, as RFC 5280 asks. */
function time(date: Date): Buffer {
  const digits = date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return date.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(`${digits.slice(2)}Z`)) : tlv(0x18, Buffer.from(`${digits}Z`));
}

const ECDSA_WITH_SHA256 = sequence(objectIdentifier('1.2.840.10045.4.3.2'));
const COMMON_NAME = '2.5.4.3';
const SUBJECT_ALT_NAME = '2.5.29.17';

function subjectAltNames(hosts: readonly string[]): Buffer {
  const names = hosts.map((host) =>
    isIPv4(host) ? tlv(0x87, Buffer.from(host.split('.').map(Number))) : tlv(0x82, Buffer.from(host, 'ascii')),
  );
  return sequence(objectIdentifier(SUBJECT_ALT_NAME), octetString(sequence(...names)));
}

/**
 * A self-signed ECDSA P-256 serving certificate and its key, made in memory, as controller-runtime makes one for
 * its secure metrics server when given none. Clients that scrape it skip verification or trust this very
 * certificate; give a certificate of your own to have it verified.
 */
export function selfSignedCertificate(options: SelfSignedOptions): ServingCertificate {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const name = sequence(set(sequence(objectIdentifier(COMMON_NAME), utf8String(options.commonName))));
  const notAfter = new Date(options.notBefore.getTime() + options.validForDays * 86_400_000);
  const hosts = options.hosts.filter((host) => host !== '' && (isIPv4(host) || /^[A-Za-z0-9.-]+$/.test(host)));
  const serial = randomBytes(16);
  const tbs = sequence(
    explicit(0, integer(Buffer.from([2]))),
    integer(serial),
    ECDSA_WITH_SHA256,
    name,
    sequence(time(options.notBefore), time(notAfter)),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    explicit(3, sequence(subjectAltNames(hosts))),
  );
  const signature = sign('sha256', tbs, { key: privateKey, dsaEncoding: 'der' });
  const der = sequence(tbs, ECDSA_WITH_SHA256, bitString(signature));
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return {
    cert: `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`,
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}
