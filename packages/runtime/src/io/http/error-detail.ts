import type { HttpResponse } from './types.js';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** Plain text is quoted; an HTML error page of a proxy is not (its markup says little and is long). */
function isPlainText(response: HttpResponse): boolean {
  const type = response.headers['content-type'];
  return type === undefined || type.toLowerCase().startsWith('text/plain');
}

/**
 * The detail of an error answer in the shapes common JSON APIs use: {"error": {"message": ...}} (OpenStack),
 * {"error": "invalid_grant", "error_description": ...} (OAuth 2), {"errorMessage": ...} (Keycloak's admin API),
 * {"message": ...}; else the body itself when it is plain text. The transport masks and shortens it.
 */
export function defaultErrorDetail(response: HttpResponse): string {
  const { body } = response;
  if (!isRecord(body)) return body === undefined && isPlainText(response) ? response.text : '';
  const error = body['error'];
  if (isRecord(error)) return text(error['message']) ?? '';
  const description = text(body['error_description']);
  const code = text(error);
  if (description !== undefined) return code === undefined ? description : `${code}: ${description}`;
  return text(body['errorMessage']) ?? code ?? text(body['message']) ?? '';
}
