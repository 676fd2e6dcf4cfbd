// @ts-check
// What this browser keeps of its player's profile: the profile (its public id, name
// and colour), this device's id, and this device's secret. The secret is sent only as
// `Authorization: Bearer`, never in an address (docs/profiles.md). The lobby and the
// table may import this module to show the profile and to take seats as its own.
import {api} from './dom.js';

const KEY = 'pitkit.profile.v1';

/** A profile as its owner sees it. @typedef {{id: string, name: string, colour: string}} Profile */
/** A device signed in to a profile, with its secret. @typedef {{profile: Profile, device: string, secret: string}} SignedIn */

/**
 * The profile this browser is signed in to, if any.
 * @returns {SignedIn | null}
 */
export function signedIn() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) || 'null');
    return kept && typeof kept.secret === 'string' && kept.profile ? kept : null;
  } catch {
    return null;
  }
}

/**
 * Keep the profile this device is now signed in to (a new one, or another device's).
 * @param {SignedIn} signed
 */
export function keep(signed) {
  try {
    localStorage.setItem(KEY, JSON.stringify(signed));
  } catch {
    // Private browsing or a full store: signed in for this page only.
  }
}

/**
 * Keep the profile's new name or colour (the secret stays).
 * @param {Profile} profile
 */
export function keepProfile(profile) {
  const signed = signedIn();
  if (signed) keep({...signed, profile});
}

/** Forget the profile here (signed out, or the server no longer knows this device). */
export function forget() {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // Nothing kept: nothing to forget.
  }
}

/**
 * JSON over HTTP as the signed-in device (no secret: as nobody).
 * @param {string} path
 * @param {{method?: string, body?: unknown}} [options]
 */
export function asMe(path, options = {}) {
  const signed = signedIn();
  return api(path, {...options, token: signed ? signed.secret : null});
}

/**
 * Take a seat at a table as this profile's: an invitation's open seat (its new secret
 * comes back), or the seat whose own secret `token` is. One profile, one seat a table.
 * @param {string} tableId
 * @param {string} token
 * @param {string} [name] the name at this table (default: the profile's)
 * @returns {Promise<{seat: number, token: string | null}>}
 */
export function sitAs(tableId, token, name) {
  const body = name === undefined ? {token} : {token, name};
  return asMe(`/api/tables/${encodeURIComponent(tableId)}/profile-seat`, {method: 'POST', body});
}
