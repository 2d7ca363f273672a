import * as t from 'io-ts';
import { oneOf } from '@keyward/kernel/model';

// What realms (in their client scopes) and clients declare alike: protocol mappers.

export const PROTOCOLS = ['openid-connect', 'saml'] as const;

/** A protocol mapper as a spec lists it; `name` is how the kind names things (their lengths differ). */
export function protocolMapperCodec(name: t.Type<string>) {
  return t.intersection([
    t.type({ name, protocolMapper: name }),
    t.partial({ protocol: oneOf(PROTOCOLS), config: t.record(t.string, t.string) }),
  ]);
}

/** The CRD schema of a protocol mapper, with the same rules as protocolMapperCodec; `protocolWhenLeftOut` names whose protocol it then takes. */
export function protocolMapperSchema(name: object, protocolWhenLeftOut: string): object {
  return {
    type: 'object',
    required: ['name', 'protocolMapper'],
    properties: {
      name: { ...name, description: 'The mapper\'s name, its key in this list.' },
      protocol: { type: 'string', enum: [...PROTOCOLS], description: `openid-connect or saml; ${protocolWhenLeftOut} when left out.` },
      protocolMapper: { ...name, description: 'The mapper type (its provider id), e.g. oidc-usermodel-attribute-mapper.' },
      config: { type: 'object', additionalProperties: { type: 'string' }, description: 'The mapper\'s settings (claim.name, user.attribute, ...), compared on the keys given.' },
    },
  };
}
