import { describe, expect, it } from '@jest/globals';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { selfSignedCertificate } from '../../src/controller/self-signed-certificate.js';

describe('selfSignedCertificate', () => {
  const notBefore = new Date('2026-11-28T12:00:00Z');
  const made = selfSignedCertificate({ commonName: 'keyward-metrics', hosts: ['localhost', 'keyward-7d9f', '10.1.2.3', 'fd00::1', ''], notBefore, validForDays: 365 });
  const certificate = new X509Certificate(made.cert);

  it('is a certificate that signs itself with the key it comes with', () => {
    expect(certificate.subject).toBe('CN=keyward-metrics');
    expect(certificate.issuer).toBe('CN=keyward-metrics');
    expect(certificate.verify(certificate.publicKey)).toBe(true);
    expect(certificate.checkPrivateKey(createPrivateKey(made.key))).toBe(true);
    expect(certificate.publicKey.asymmetricKeyType).toBe('ec');
  });

  it('names the DNS names and IPv4 addresses given, and is valid from then for the days given', () => {
    expect(certificate.subjectAltName).toBe('DNS:localhost, DNS:keyward-7d9f, IP Address:10.1.2.3');
    expect(certificate.checkHost('keyward-7d9f')).toBe('keyward-7d9f');
    expect(certificate.checkIP('10.1.2.3')).toBe('10.1.2.3');
    expect(new Date(certificate.validFrom).toISOString()).toBe(notBefore.toISOString());
    expect(new Date(certificate.validTo).toISOString()).toBe('2027-11-28T12:00:00.000Z');
  });

  it('is a new key and serial each time', () => {
    const other = new X509Certificate(selfSignedCertificate({ commonName: 'keyward-metrics', hosts: ['localhost'], notBefore, validForDays: 1 }).cert);
    expect(other.serialNumber).not.toBe(certificate.serialNumber);
    expect(other.publicKey.export({ type: 'spki', format: 'pem' })).not.toBe(certificate.publicKey.export({ type: 'spki', format: 'pem' }));
  });
});
