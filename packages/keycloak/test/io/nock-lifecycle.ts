// nock for a test file of the Keycloak admin client: no real connection while it runs, and after each test the
// transport pools it made closed and the interceptors it left cleared.
import { afterAll, afterEach, beforeAll } from '@jest/globals';
import nock from 'nock';
import type { KeycloakTransportPool } from '../../src/io.js';

/** Registers the file's hooks; a test hands each pool it makes to the returned function, to be closed after it. */
export function nockPerTest(): (pool: KeycloakTransportPool) => void {
  let pools: KeycloakTransportPool[] = [];
  beforeAll(() => {
    nock.disableNetConnect();
  });
  afterEach(() => {
    for (const pool of pools) pool.close();
    pools = [];
    nock.cleanAll();
  });
  afterAll(() => {
    nock.enableNetConnect();
    // Unpatch Node's http, which outlives this file in the jest worker: the integration tests that share the
    // worker would otherwise open a new connection for every request (nock's requests never reuse sockets).
    nock.restore();
  });
  return (pool) => { pools.push(pool); };
}
