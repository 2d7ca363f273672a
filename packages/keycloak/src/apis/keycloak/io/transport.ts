import { HttpTransport, defaultErrorDetail, type HttpResponse, type HttpTransportOptions } from '@keyward/runtime/io';

/** Everything of the generic transport but what makes it Keycloak's (and the URL, which is the server's). */
export type KeycloakTransportOptions = Omit<HttpTransportOptions, 'api' | 'label' | 'baseUrl' | 'probePath' | 'decodeError' | 'authHeaders'>;

/** Answers without a token (the master realm's public facts): the breaker's probe needs no credentials. */
export const KEYCLOAK_PROBE_PATH = '/realms/master';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/**
 * Keycloak's words about a failed request. The admin API answers {"errorMessage", "field"?} (validation) or
 * {"error"} ("Could not find role"); the token endpoint answers {"error", "error_description"} (OAuth 2).
 */
export function keycloakErrorDetail(response: HttpResponse): string {
  const { body } = response;
  if (!isRecord(body)) return defaultErrorDetail(response);
  const message = text(body['errorMessage']);
  const field = text(body['field']);
  if (message !== undefined) return field === undefined ? message : `${message} (field ${field})`;
  const error = text(body['error']);
  const description = text(body['error_description']);
  if (description !== undefined) return error === undefined ? description : `${error}: ${description}`;
  return error ?? defaultErrorDetail(response);
}

/** The HTTP transport for one Keycloak server (its root URL, without /admin): bearer tokens, Keycloak's error bodies. */
export function keycloakTransport(url: string, options: KeycloakTransportOptions = {}): HttpTransport {
  return new HttpTransport({
    ...options,
    api: 'keycloak',
    label: 'Keycloak',
    baseUrl: url,
    probePath: KEYCLOAK_PROBE_PATH,
    decodeError: keycloakErrorDetail,
  });
}
