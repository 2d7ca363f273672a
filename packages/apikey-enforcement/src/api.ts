import { DNS1123_SUBDOMAIN_MAX_LENGTH, truncateWithHash } from '@keyward/core/model';

/**
 * Name of the enforcement Secret for the APIKey `namespace/name`. A namespace never contains a dot, so
 * `<namespace>.<name>` cannot be produced by two different pairs (`foo-bar/baz` and `foo/bar-baz` differ);
 * names too long for a Secret are shortened with a hash of the full pair, which keeps them distinct.
 */
export function enforcementSecretName(namespace: string, name: string): string {
  return truncateWithHash(`apikey-${namespace}.${name}`, DNS1123_SUBDOMAIN_MAX_LENGTH);
}
