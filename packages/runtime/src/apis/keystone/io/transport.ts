import { HttpTransport } from '../../../io/http/transport.js';
import type {
  HttpLimiterOptions,
  HttpRequest,
  HttpRequestInfo,
  HttpRequestObserver,
  HttpResponse,
  HttpTransportOptions,
} from '../../../io/http/types.js';
import { keystoneErrorDetail } from './decode.js';

/** How hard one client may press its Keystone endpoint. */
export type KeystoneLimiterOptions = HttpLimiterOptions;
/** One HTTP exchange with Keystone, as the runtime's metrics see it. Every attempt is reported, retries included. */
export type KeystoneRequestInfo = HttpRequestInfo;
export type KeystoneRequestObserver = HttpRequestObserver;
export type KeystoneRequest = HttpRequest;
export type KeystoneResponse = HttpResponse;

/** Everything of the generic transport but what makes it Keystone's. */
export type KeystoneTransportOptions = Omit<HttpTransportOptions, 'api' | 'label' | 'probePath' | 'decodeError' | 'authHeaders' | 'keepAlive'>;

/**
 * The HTTP transport configured for a Keystone Identity v3 endpoint (its base URL ends in /v3): tokens in
 * X-Auth-Token, Keystone's error bodies, and the version document at the base URL as the breaker's probe.
 */
export function keystoneTransport(options: KeystoneTransportOptions): HttpTransport {
  return new HttpTransport({
    ...options,
    api: 'keystone',
    label: 'Keystone',
    probePath: '',
    decodeError: keystoneErrorDetail,
    authHeaders: (token) => ({ 'x-auth-token': token }),
    // A fresh connection per request: Keystone under uWSGI closes after each response, and a kept-alive
    // connection would then fail the next request with "socket hang up".
    keepAlive: false,
  });
}
