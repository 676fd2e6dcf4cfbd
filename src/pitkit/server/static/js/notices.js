// @ts-check
// Notices on this device (docs/notices.md): "Tell me when it's my turn" asks the
// browser's permission (only on that click), subscribes through the service worker's
// PushManager with the server's key, and hands the subscription to the server as the
// signed-in profile's. The section shows where things stand: on, off, or blocked by
// the browser.
import {ApiError, api, errorText} from './dom.js';
import {asMe, signedIn} from './profile.js';
import {registerWorker} from './worker.js';

/** @typedef {'on' | 'off' | 'blocked' | 'unsupported'} NoticeState */

const WORDS = {
  on: 'Notices are on for this device.',
  off: 'Notices are off for this device.',
  blocked: 'Notices are blocked by the browser for this site: allow them in its site settings, then press the button again.',
  unsupported: 'This browser cannot show notices from pitkit. On an iPhone or iPad, add pitkit to the home screen first (Share, then Add to Home Screen) and open it from there.',
};

/** Whether this browser can receive pushed notices at all. */
function canPush() {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

/**
 * Base64url as bytes (the server's key).
 * @param {string} text
 */
function bytes(text) {
  const plain = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - text.length % 4) % 4));
  const out = new Uint8Array(plain.length);
  for (let i = 0; i < plain.length; i++) out[i] = plain.charCodeAt(i);
  return out;
}

/**
 * Whether `subscription` was made with `key` (a server with a new key needs a new one).
 * @param {PushSubscription} subscription
 * @param {Uint8Array<ArrayBuffer>} key
 */
function madeWith(subscription, key) {
  const made = subscription.options && subscription.options.applicationServerKey;
  if (!made) return true;  // the browser does not say: trust it
  const mine = new Uint8Array(made);
  return mine.length === key.length && mine.every((b, i) => b === key[i]);
}

/**
 * Give the server this browser's subscription as the profile's. Another profile holds
 * it (this device was signed in to another): a new subscription, and again.
 * @param {PushManager} manager
 * @param {PushSubscription} subscription
 * @param {Uint8Array<ArrayBuffer>} key
 */
async function hand(manager, subscription, key) {
  try {
    await asMe('/api/profiles/me/push/subscribe', {method: 'POST', body: subscription.toJSON()});
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 409) throw error;
    await subscription.unsubscribe();
    const fresh = await manager.subscribe({userVisibleOnly: true, applicationServerKey: key});
    await asMe('/api/profiles/me/push/subscribe', {method: 'POST', body: fresh.toJSON()});
  }
}

/**
 * This browser's subscription, made with the server's current key (a server with a new
 * key needs a new one), handed to the server as the profile's.
 * @param {ServiceWorkerRegistration} registration
 */
async function subscribed(registration) {
  const manager = registration.pushManager;
  const key = bytes((await api('/api/push/key')).key);
  let subscription = await manager.getSubscription();
  if (subscription && !madeWith(subscription, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ||= await manager.subscribe({userVisibleOnly: true, applicationServerKey: key});
  await hand(manager, subscription, key);
}

/**
 * Turn notices on: permission (asked now, on the click), a subscription, the server told.
 * @returns {Promise<NoticeState>}
 */
async function turnOn() {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return permission === 'denied' ? 'blocked' : 'off';
  if (!(await registerWorker())) return 'unsupported';
  await subscribed(await navigator.serviceWorker.ready);
  return 'on';
}

/**
 * Turn notices off on this device: the server forgets it, the browser unsubscribes.
 * @returns {Promise<NoticeState>}
 */
async function turnOff() {
  const registration = await navigator.serviceWorker.getRegistration('/');
  const subscription = registration ? await registration.pushManager.getSubscription() : null;
  if (subscription) {
    await asMe('/api/profiles/me/push/unsubscribe', {method: 'POST', body: {endpoint: subscription.endpoint}})
      .catch((error) => { if (!(error instanceof ApiError) || error.status !== 404) throw error; });
    await subscription.unsubscribe();
  }
  return 'off';
}

/**
 * Where notices stand on this device; when on, the server is reminded of the
 * subscription (it forgets one its push service calls gone).
 * @returns {Promise<NoticeState>}
 */
async function current() {
  if (!canPush()) return 'unsupported';
  if (Notification.permission === 'denied') return 'blocked';
  const registration = await navigator.serviceWorker.getRegistration('/');
  const subscription = registration ? await registration.pushManager.getSubscription() : null;
  if (!registration || !subscription || Notification.permission !== 'granted' || !signedIn()) return 'off';
  await subscribed(registration).catch(() => {});  // offline, say: it is on all the same
  return 'on';
}

/** The section on the player's page: its buttons and its words. */
function startSection() {
  const section = document.getElementById('notices');
  const on = /** @type {HTMLButtonElement | null} */ (document.getElementById('notices-on'));
  const off = /** @type {HTMLButtonElement | null} */ (document.getElementById('notices-off'));
  const words = document.getElementById('notices-state');
  if (!section || !on || !off || !words) return;
  /** @param {NoticeState} state */
  const show = (state) => {
    words.textContent = WORDS[state];
    on.hidden = state === 'on' || state === 'unsupported';
    off.hidden = state !== 'on';
  };
  /** @param {() => Promise<NoticeState>} change */
  const press = async (change) => {
    on.disabled = off.disabled = true;
    try {
      show(await change());
    } catch (error) {
      words.textContent = `Notices could not be changed: ${errorText(error)}`;
    } finally {
      on.disabled = off.disabled = false;
    }
  };
  on.addEventListener('click', () => press(turnOn));
  off.addEventListener('click', () => press(turnOff));
  // The section is for a signed-in profile: shown with the profile's own (me.js shows
  // that one once it knows who is here).
  const profile = document.getElementById('profile');
  const follow = () => { section.hidden = !signedIn() || (profile !== null && profile.hidden); };
  if (profile) new MutationObserver(follow).observe(profile, {attributes: true, attributeFilter: ['hidden']});
  follow();
  current().then(show, () => show('off'));
}

startSection();
