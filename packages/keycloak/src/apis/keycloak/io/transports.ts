import { AvailabilityListeners, type AvailabilityListener, type AvailabilitySource } from '@keyward/kernel/interpreter';
import { type HttpTransport } from '@keyward/runtime/io';
import { keycloakTransport, type KeycloakTransportOptions } from './transport.js';

/** Keycloak transports by server URL, created on first use, and the availability changes of them all. */
export interface KeycloakTransportPool extends AvailabilitySource {
  (url: string): HttpTransport;
  /** Stops every transport's probing; for a pool that is no longer used. */
  close(): void;
}

/** One transport per server (so each has its own breaker), created on first use. */
export function keycloakTransportPool(options: KeycloakTransportOptions = {}): KeycloakTransportPool {
  const transports = new Map<string, HttpTransport>();
  const changes = new AvailabilityListeners();
  const transportFor = (url: string): HttpTransport => {
    let transport = transports.get(url);
    if (transport === undefined) {
      transport = keycloakTransport(url, options);
      transport.availability.subscribe((change) => { changes.emit(change); });
      transports.set(url, transport);
    }
    return transport;
  };
  return Object.assign(transportFor, {
    subscribe: (listener: AvailabilityListener) => changes.subscribe(listener),
    close: () => {
      for (const transport of transports.values()) transport.availability.close();
    },
  });
}
