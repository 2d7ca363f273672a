import * as t from 'io-ts';
import { atMost, patternedText, uniqueList } from '@keyward/kernel/model';

// A realm's organizations as a spec lists them: the codec here, the same rules as a schema in
// organization-crd.ts. Keycloak 26 keys an organization by its alias, which it takes from the name when none
// is given, refuses to change, and refuses with a space or a slash.

/** Keycloak's columns for organization names, aliases and domains hold 255 characters. */
export const ORG_TEXT_MAX_LENGTH = 255;
/** What an alias (given, or taken from the name) may be: Keycloak refuses spaces and slashes. */
export const ORG_ALIAS_PATTERN = '^[A-Za-z0-9._-]+$';
/** A domain name: labels of letters, digits and hyphens, separated by dots. */
export const ORG_DOMAIN_PATTERN = '^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$';
/** Bounds what the schema's rules on list items cost the API server to check. */
export const MAX_ORGANIZATIONS = 100;
export const MAX_ORG_DOMAINS = 50;
export const MAX_ORG_LINKS = 50;



const aliasText = patternedText(ORG_TEXT_MAX_LENGTH, ORG_ALIAS_PATTERN, 'letters, digits, ., _ and -');
const domainName = patternedText(ORG_TEXT_MAX_LENGTH, ORG_DOMAIN_PATTERN, 'a domain name');

const DomainCodec = t.intersection([t.type({ name: domainName }), t.partial({ verified: t.boolean })]);
/** An identity provider of the realm, by alias, linked to the organization. */
const LinkCodec = t.type({ alias: aliasText });

const OrganizationFields = t.intersection([
  t.type({ name: patternedText(ORG_TEXT_MAX_LENGTH, '^[\\s\\S]+$', 'any') }),
  t.partial({
    alias: aliasText,
    description: t.string,
    enabled: t.boolean,
    redirectUrl: t.string,
    domains: atMost(uniqueList(t.array(DomainCodec), (domain) => domain.name.toLowerCase()), MAX_ORG_DOMAINS),
    attributes: t.record(t.string, t.array(t.string)),
    identityProviders: atMost(uniqueList(t.array(LinkCodec), (link) => link.alias), MAX_ORG_LINKS),
  }),
]);
type OrganizationFields = t.TypeOf<typeof OrganizationFields>;

/** The alias Keycloak keys an organization by: the given one, else its name. */
export const organizationAlias = (spec: { readonly name: string; readonly alias?: string | undefined }): string => spec.alias ?? spec.name;

/** An organization whose name must serve as its alias when it has none (Keycloak refuses the name otherwise). */
const OrganizationCodec = new t.Type<OrganizationFields, t.OutputOf<typeof OrganizationFields>>(
  'Organization',
  (u): u is OrganizationFields => OrganizationFields.is(u) && aliasText.is(organizationAlias(u)),
  (u, c) => {
    const decoded = OrganizationFields.validate(u, c);
    if (decoded._tag === 'Left' || aliasText.is(organizationAlias(decoded.right))) return decoded;
    return t.failure(decoded.right.name, [...c, { key: 'name', type: aliasText, actual: decoded.right.name }], 'without alias, the name is the alias: letters, digits, ., _ and - only');
  },
  OrganizationFields.encode,
);

interface Repeat {
  readonly index: number;
  readonly field: 'domains' | 'identityProviders';
  readonly name: string;
}

/**
 * Keycloak links a domain, and an identity provider, to one organization of a realm (a second is a 400): no
 * domain or provider in two listed ones.
 */
function repeatedDomain(organizations: readonly OrganizationFields[]): Repeat | undefined {
  const owner = new Set<string>();
  for (const [index, organization] of organizations.entries()) {
    const named = [
      ...(organization.domains ?? []).map((domain) => ({ field: 'domains' as const, name: domain.name, key: `domain ${domain.name.toLowerCase()}` })),
      ...(organization.identityProviders ?? []).map((link) => ({ field: 'identityProviders' as const, name: link.alias, key: `provider ${link.alias}` })),
    ];
    for (const { field, name, key } of named) {
      if (owner.has(key)) return { index, field, name };
      owner.add(key);
    }
  }
  return undefined;
}

const OrganizationList = atMost(uniqueList(uniqueList(t.array(OrganizationCodec), (o) => o.name), organizationAlias), MAX_ORGANIZATIONS);

export const OrganizationsCodec = new t.Type<OrganizationFields[], t.OutputOf<typeof OrganizationFields>[]>(
  'Organizations',
  (u): u is OrganizationFields[] => OrganizationList.is(u) && repeatedDomain(u) === undefined,
  (u, c) => {
    const decoded = OrganizationList.validate(u, c);
    if (decoded._tag === 'Left') return decoded;
    const repeat = repeatedDomain(decoded.right);
    if (repeat === undefined) return decoded;
    const what = repeat.field === 'domains' ? `domain ${repeat.name}` : `identity provider ${repeat.name}`;
    return t.failure(repeat.name, [...c, { key: String(repeat.index), type: OrganizationCodec, actual: decoded.right[repeat.index] }, { key: repeat.field, type: DomainCodec, actual: repeat.name }], `${what} is listed by another organization: Keycloak links it to one organization`);
  },
  OrganizationList.encode,
);

export type OrganizationSpec = OrganizationFields;
export type OrganizationDomainSpec = t.TypeOf<typeof DomainCodec>;
