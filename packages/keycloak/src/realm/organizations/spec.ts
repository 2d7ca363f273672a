import * as t from 'io-ts';
import { fields as f, uniqueList, withFieldRule } from '@keyward/kernel/model';
import { pruneRuleDescription } from '../../prune.js';

// A realm's organizations as a spec lists them, each field declared once for the codec and the CRD schema.
// Keycloak 26 keys an organization by its alias, which it takes from the name when none is given, refuses to
// change, and refuses with a space or a slash.

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

const NAME_AS_ALIAS_MESSAGE = 'without alias, the name is the alias: letters, digits, ., _ and - only';
const aliasText = f.patterned(ORG_TEXT_MAX_LENGTH, ORG_ALIAS_PATTERN, 'letters, digits, ., _ and -');

const Domain = f.object({
  name: f.patterned(ORG_TEXT_MAX_LENGTH, ORG_DOMAIN_PATTERN, 'a domain name').describe('The domain name, e.g. example.com.').required(),
  verified: f.boolean().describe('Whether the domain is verified (Keycloak\'s default: false).'),
});

/** An identity provider of the realm, by alias, linked to the organization. */
const Link = f.object({ alias: aliasText.describe('The alias of an identity provider of this realm.').required() });

/** The alias Keycloak keys an organization by: the given one, else its name. */
export const organizationAlias = (spec: { readonly name: string; readonly alias?: string | undefined }): string => spec.alias ?? spec.name;

/** An organization whose name must serve as its alias when it has none (Keycloak refuses the name otherwise). */
const Organization = f.object({
  name: f.text(ORG_TEXT_MAX_LENGTH).says(`a string of 1 to ${String(ORG_TEXT_MAX_LENGTH)} characters (any)`).describe('The organization\'s name, unique in the realm; without alias, also its alias.').required(),
  alias: aliasText.describe('Keycloak\'s key of the organization (default: the name); Keycloak cannot change it.'),
  description: f.string().describe('The organization\'s description.'),
  enabled: f.boolean().describe('Whether the organization is enabled; left out, as Keycloak has it.'),
  redirectUrl: f.string().describe('Where members go after their invitation or registration.'),
  // Domain names are compared in any case, as Keycloak does.
  domains: f.listMap('name', Domain, { maxItems: MAX_ORG_DOMAINS, sameKey: (domain) => domain.name.toLowerCase() })
    .describe('The organization\'s domains: exactly these when given. A domain belongs to one organization of a realm.'),
  attributes: f.record(f.list(f.string())).describe('Exactly these attributes when given (Keyward\'s marker aside).'),
  identityProviders: f.listMap('alias', Link, { maxItems: MAX_ORG_LINKS })
    .describe('Identity providers of the realm, by alias, linked to the organization: exactly these when given and not empty. A provider belongs to one organization.'),
}).rule({ rule: `has(self.alias) || self.name.matches('${ORG_ALIAS_PATTERN}')`, fieldPath: '.name', message: NAME_AS_ALIAS_MESSAGE }, (codec) =>
  withFieldRule('Organization', codec, (organization) => (aliasText.codec.is(organizationAlias(organization)) ? undefined : { field: 'name', message: NAME_AS_ALIAS_MESSAGE })));

export type OrganizationSpec = t.TypeOf<typeof Organization.codec>;
export type OrganizationDomainSpec = t.TypeOf<typeof Domain.codec>;

interface Repeat {
  readonly index: number;
  readonly field: 'domains' | 'identityProviders';
  readonly name: string;
}

/**
 * Keycloak links a domain, and an identity provider, to one organization of a realm (a second is a 400): no
 * domain or provider in two listed ones.
 */
function repeatedDomain(organizations: readonly OrganizationSpec[]): Repeat | undefined {
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

/** `list`, refusing a domain or identity provider that two organizations list, at the second one. */
function withoutSharedLinks<O>(list: t.Type<OrganizationSpec[], O>): t.Type<OrganizationSpec[], O> {
  return new t.Type<OrganizationSpec[], O>(
    'Organizations',
    (u): u is OrganizationSpec[] => list.is(u) && repeatedDomain(u) === undefined,
    (u, c) => {
      const decoded = list.validate(u, c);
      if (decoded._tag === 'Left') return decoded;
      const repeat = repeatedDomain(decoded.right);
      if (repeat === undefined) return decoded;
      const what = repeat.field === 'domains' ? `domain ${repeat.name}` : `identity provider ${repeat.name}`;
      return t.failure(repeat.name, [...c, { key: String(repeat.index), type: list, actual: decoded.right[repeat.index] }, { key: repeat.field, type: list, actual: repeat.name }], `${what} is listed by another organization: Keycloak links it to one organization`);
    },
    list.encode,
  );
}

const aliasOf = (item: string): string => `(has(${item}.alias) ? ${item}.alias : ${item}.name)`;

export const Organizations = f.listMap('name', Organization, { maxItems: MAX_ORGANIZATIONS })
  .rule({ rule: `self.all(o, self.exists_one(p, ${aliasOf('p')} == ${aliasOf('o')}))`, message: 'two organizations have the same alias' }, (codec) => uniqueList(codec, organizationAlias))
  // Only the codec sees that two organizations list the same domain or identity provider.
  .codecOnly(withoutSharedLinks)
  .describe(`Organizations of the realm (Keycloak 26; needs organizationsEnabled), by alias; those made from this list carry a marker in their attributes. ${pruneRuleDescription('organizations')}`);

export const OrganizationsCodec = Organizations.codec;
export const organizationsSchema = Organizations.schema;
