/** Secret key holding the application credential's ID (upstream's ACIDSecretKey). */
export const ACIDSecretKey = 'AC_ID';
/** Secret key holding the application credential's secret (upstream's ACSecretSecretKey). */
export const ACSecretSecretKey = 'AC_SECRET';

/**
 * The name of the KeystoneApplicationCredential a service's operator creates for it: `ac-<service>`.
 * Other operators (openstack-operator) use it to find the CR and read its status.
 */
export function getACCRName(service: string): string {
  return `ac-${service}`;
}
