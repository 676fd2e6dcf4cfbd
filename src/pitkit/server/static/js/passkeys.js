// @ts-check
// Passkeys in the browser: WebAuthn's options as the server sends them (JSON, with
// base64url text for each buffer) made into what `navigator.credentials` takes, and its
// answers made back into JSON for the server (docs/profiles.md). Written out rather than
// left to `PublicKeyCredential.parseCreationOptionsFromJSON`, which older browsers lack.

/**
 * base64url text as bytes.
 * @param {string} text
 */
function bytes(text) {
  const plain = text.replace(/-/g, '+').replace(/_/g, '/');
  return Uint8Array.from(atob(plain + '='.repeat((4 - (plain.length % 4)) % 4)), (c) => c.charCodeAt(0));
}

/**
 * Bytes as base64url text.
 * @param {ArrayBuffer} buffer
 */
function base64url(buffer) {
  let text = '';
  for (const b of new Uint8Array(buffer)) text += String.fromCharCode(b);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * A credential list's ids as bytes.
 * @param {Array<{id: string, type: string, transports?: string[]}> | undefined} list
 * @returns {PublicKeyCredentialDescriptor[]}
 */
function descriptors(list) {
  return (list || []).map((c) => ({type: 'public-key', id: bytes(c.id), transports: /** @type {AuthenticatorTransport[]} */ (c.transports || [])}));
}

/** Whether this browser can use passkeys here (a secure page: https, or localhost). */
export function passkeysWork() {
  return typeof PublicKeyCredential !== 'undefined' && !!navigator.credentials && window.isSecureContext;
}

/**
 * Make a passkey with the server's options (POST /api/profiles/me/passkeys/begin); the
 * answer, as JSON for POST /api/profiles/me/passkeys.
 * @param {any} options
 * @returns {Promise<Record<string, unknown>>}
 */
export async function makePasskey(options) {
  /** @type {PublicKeyCredentialCreationOptions} */
  const publicKey = {
    ...options,
    challenge: bytes(options.challenge),
    user: {...options.user, id: bytes(options.user.id)},
    excludeCredentials: descriptors(options.excludeCredentials),
  };
  const made = /** @type {PublicKeyCredential | null} */ (await navigator.credentials.create({publicKey}));
  if (!made) throw new Error('no passkey was made');
  const response = /** @type {AuthenticatorAttestationResponse} */ (made.response);
  return {
    id: made.id,
    rawId: base64url(made.rawId),
    type: made.type,
    response: {
      clientDataJSON: base64url(response.clientDataJSON),
      attestationObject: base64url(response.attestationObject),
      transports: typeof response.getTransports === 'function' ? response.getTransports() : [],
    },
  };
}

/**
 * Sign with a passkey of this site's, for the server's options (POST
 * /api/profiles/sign-in/passkey/begin); the answer, as JSON for the sign-in.
 * @param {any} options
 * @returns {Promise<Record<string, unknown>>}
 */
export async function usePasskey(options) {
  /** @type {PublicKeyCredentialRequestOptions} */
  const publicKey = {...options, challenge: bytes(options.challenge), allowCredentials: descriptors(options.allowCredentials)};
  const used = /** @type {PublicKeyCredential | null} */ (await navigator.credentials.get({publicKey}));
  if (!used) throw new Error('no passkey was chosen');
  const response = /** @type {AuthenticatorAssertionResponse} */ (used.response);
  return {
    id: used.id,
    rawId: base64url(used.rawId),
    type: used.type,
    response: {
      clientDataJSON: base64url(response.clientDataJSON),
      authenticatorData: base64url(response.authenticatorData),
      signature: base64url(response.signature),
      userHandle: response.userHandle ? base64url(response.userHandle) : null,
    },
  };
}
