import type { HttpResponse } from '@keyward/runtime/io';
import type { KeycloakCall } from '../actions.js';
import type { KeycloakObject } from '../representations.js';
import type { KeycloakAdminClient } from './client.js';
import { listBody, objectBody } from './decode.js';

/** A GET of the admin API, and the fields each representation it returns must have. */
export interface AdminRead<R extends KeycloakObject = KeycloakObject> {
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly operation: string;
  readonly description: string;
  readonly fields?: readonly (keyof R & string)[];
}

/** Reads of one call's server, charged to its namespace. A 404 reads as undefined: the thing is not there. */
export class AdminReads {
  readonly #admin: KeycloakAdminClient;
  readonly #call: KeycloakCall;

  constructor(admin: KeycloakAdminClient, call: KeycloakCall) {
    this.#admin = admin;
    this.#call = call;
  }

  async object<R extends KeycloakObject>(read: AdminRead<R>): Promise<R | undefined> {
    const response = await this.#get(read);
    return response.status === 404 ? undefined : objectBody<R>(response, read.fields ?? [], read.description);
  }

  async list<R extends KeycloakObject>(read: AdminRead<R>): Promise<R[] | undefined> {
    const response = await this.#get(read);
    return response.status === 404 ? undefined : listBody<R>(response, read.fields ?? [], read.description);
  }

  /**
   * A POST that changes nothing in Keycloak and only reports (a connection test): its status, 400 included,
   * and its body.
   */
  async probe(read: AdminRead & { readonly body: unknown }): Promise<HttpResponse> {
    return this.#admin.send(this.#call, { method: 'POST', path: read.path, operation: read.operation, description: read.description, body: read.body, accept: [400] });
  }

  #get<R extends KeycloakObject>(read: AdminRead<R>): Promise<HttpResponse> {
    return this.#admin.send(this.#call, {
      method: 'GET',
      path: read.path,
      ...(read.query === undefined ? {} : { query: read.query }),
      operation: read.operation,
      description: read.description,
      accept: [404],
    });
  }
}
