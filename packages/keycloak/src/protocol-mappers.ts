import * as t from 'io-ts';
import { oneOf } from '@keyward/vocabulary';

// What realms (in their client scopes) and clients declare alike: protocol mappers.

export const PROTOCOLS = ['openid-connect', 'saml'] as const;

/** A protocol mapper as a spec lists it; `name` is how the kind names things (their lengths differ). */
export function protocolMapperCodec(name: t.Type<string>) {
  return t.intersection([
    t.type({ name, protocolMapper: name }),
    t.partial({ protocol: oneOf(PROTOCOLS), config: t.record(t.string, t.string) }),
  ]);
}

/** The CRD schema of a protocol mapper, with the same rules as protocolMapperCodec. */
export function protocolMapperSchema(name: object, protocolDescription?: string): object {
  return {
    type: 'object',
    required: ['name', 'protocolMapper'],
    properties: {
      name,
      protocol: { type: 'string', enum: [...PROTOCOLS], ...(protocolDescription === undefined ? {} : { description: protocolDescription }) },
      protocolMapper: name,
      config: { type: 'object', additionalProperties: { type: 'string' } },
    },
  };
}
