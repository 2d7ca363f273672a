// The marker at the end of a description that says Keyward made the object: for Keycloak objects that keep a
// description but no attributes (authentication flows, authorization policies and permissions).

export const DESCRIPTION_MARKER = '[io.kubernetes.managed-by=keyward]';

/** Whether a description ends in our marker. */
export const carriesDescriptionMarker = (description: string | undefined): boolean => description?.endsWith(DESCRIPTION_MARKER) === true;

/** A description with our marker at its end. */
export const markedDescription = (description: string): string => (description === '' ? DESCRIPTION_MARKER : `${description} ${DESCRIPTION_MARKER}`);
