// @ts-check
// The profile page (/me): make a profile, or sign this device in to one with a code
// or a passkey; then rename it, see its tables and continue at one here, show a
// one-time code or add a passkey for another device, and sign devices out
// (docs/profiles.md).
import {ApiError, api, errorText, h, plural, toast, when} from './dom.js';
import * as store from './store.js';
import {asMe, forget, keep, keepProfile, signedIn} from './profile.js';
import {makePasskey, passkeysWork, usePasskey} from './passkeys.js';
import {timeLeftText} from './own-pace.js';

/** @typedef {import('./profile.js').Profile} Profile */
/** @typedef {import('./profile.js').SignedIn} SignedIn */
/** A signed-in device. @typedef {{id: string, how: string, created: number, this: boolean}} Device */
/** A passkey (its credential's id). @typedef {{id: string, created: number}} Passkey */
/** @typedef {{profile: Profile, device: string, devices: Device[], passkeys: Passkey[], ways: string[]}} Me */
/**
 * A table where the profile holds a seat.
 * @typedef {{id: string, game: string, title: string, players: number, status: string, match: number,
 *   seat: number, name: string | null, event: string | null, updated: number, your_turn: boolean | null,
 *   move_left?: number | null, own_pace?: number | null}} MyTable
 */

/** @type {Record<string, string>} */
const HOW = {new: 'made here', code: 'signed in with a code', passkey: 'signed in with a passkey'};

/** @type {Record<string, string>} */
const STATUS = {waiting: 'waiting for players', playing: 'playing', over: 'over', closed: 'closed', expired: 'expired', broken: 'broken'};

/**
 * @param {string} id
 * @returns {HTMLElement}
 */
function byId(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the page has no #${id}`);
  return el;
}

/**
 * @param {string} id
 * @returns {HTMLInputElement}
 */
function field(id) {
  return /** @type {HTMLInputElement} */ (byId(id));
}

/** @param {boolean} signed whether this device is signed in: which sections show */
function showSections(signed) {
  for (const id of ['make', 'sign-in']) byId(id).hidden = signed;
  for (const id of ['profile', 'tables', 'devices']) byId(id).hidden = !signed;
}

function showSignedOut() {
  showSections(false);
  const name = field('make-name');
  if (!name.value) name.value = store.playerName();
  const passkey = /** @type {HTMLButtonElement} */ (byId('passkey-sign-in'));
  passkey.disabled = !passkeysWork();
  if (passkey.disabled) passkey.title = 'Passkeys need a secure page (https)';
}

/** Read the profile afresh and draw everything (signed out: the forms to sign in). */
async function refresh() {
  if (!signedIn()) {
    showSignedOut();
    return;
  }
  /** @type {Me} */
  let me;
  try {
    me = await asMe('/api/profiles/me');
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      forget();
      toast('This device is no longer signed in to your profile.', 'info');
      showSignedOut();
    } else toast(errorText(error));
    return;
  }
  keepProfile(me.profile);
  showSections(true);
  const page = /** @type {HTMLAnchorElement} */ (byId('my-page'));
  page.href = `/p/${encodeURIComponent(me.profile.id)}`;
  page.hidden = false;
  drawProfile(me.profile);
  drawDevices(me);
  await drawTables();
}

/** @param {Profile} profile */
function drawProfile(profile) {
  field('profile-name').value = profile.name;
  field('profile-colour').value = profile.colour;
  byId('swatch').style.background = profile.colour;
}

/** @param {Me} me */
function drawDevices(me) {
  byId('device-list').replaceChildren(...me.devices.map((device) => h('li', {dataset: {device: device.id}},
    h('span', {}, device.this ? h('strong', {}, 'This device') : 'A device', `, ${HOW[device.how] || device.how} on ${when(device.created)}`),
    h('button', {type: 'button', onclick: () => signOut(device)}, 'Sign out'))));
  byId('passkey-list').replaceChildren(...(me.passkeys.length ? me.passkeys.map((key) => h('li', {},
    h('span', {}, `A passkey added on ${when(key.created)}`),
    h('button', {type: 'button', onclick: () => removePasskey(key)}, 'Remove'))) : [h('li', {class: 'note'}, 'None yet.')]));
  const add = /** @type {HTMLButtonElement} */ (byId('add-passkey'));
  add.disabled = !passkeysWork();
  if (add.disabled) add.title = 'Passkeys need a secure page (https)';
}

async function drawTables() {
  /** @type {MyTable[]} */
  const tables = await asMe('/api/profiles/me/tables');
  const items = tables.map((table) => h('li', {class: 'my-table', dataset: {table: table.id}},
    h('div', {class: 'my-table-what'},
      h('strong', {}, table.title), ` · seat ${table.seat + 1} of ${table.players}`,
      table.name ? ` as ${table.name}` : '',
      h('div', {class: 'note'}, table.your_turn ? h('strong', {class: 'your-turn'}, 'Your turn') : STATUS[table.status] || table.status,
        table.your_turn && table.move_left != null ? ` · ${timeLeftText(table.move_left)} to move` : '',
        table.match > 1 ? ` · match ${table.match}` : '')),
    h('button', {type: 'button', class: 'primary', onclick: () => carryOn(table)}, 'Continue here')));
  byId('table-list').replaceChildren(...(items.length ? items : [h('li', {class: 'note'},
    'No tables yet: a seat you take while signed in shows here, on every device you sign in on.')]));
}

/**
 * Continue at a table on this device: the seat gets a new secret for it, and the page
 * holding the seat there is let go.
 * @param {MyTable} table
 */
async function carryOn(table) {
  try {
    const went = await asMe(`/api/tables/${encodeURIComponent(table.id)}/continue`, {method: 'POST'});
    store.updateTable(table.id, {token: went.token, game: table.game});
    location.assign(`/t/${encodeURIComponent(table.id)}#token=${encodeURIComponent(went.token)}&continue`);
  } catch (error) {
    toast(errorText(error));
  }
}

/** @param {Device} device */
async function signOut(device) {
  try {
    await asMe(`/api/profiles/me/devices/${encodeURIComponent(device.id)}`, {method: 'DELETE'});
  } catch (error) {
    toast(errorText(error));
    return;
  }
  if (device.this) forget();
  await refresh();
}

/** @param {Passkey} key */
async function removePasskey(key) {
  try {
    await asMe(`/api/profiles/me/passkeys/${encodeURIComponent(key.id)}`, {method: 'DELETE'});
  } catch (error) {
    toast(errorText(error));
  }
  await refresh();
}

/**
 * This device is signed in now: keep its secret, and show the profile.
 * @param {SignedIn} signed
 */
async function signedInHere(signed) {
  keep(signed);
  if (!store.playerName()) store.setPlayerName(signed.profile.name);
  await refresh();
}

/**
 * Run `work` for a form or a button, with its errors shown.
 * @param {() => Promise<void>} work
 */
async function showing(work) {
  try {
    await work();
  } catch (error) {
    // A passkey dialog the person closed is no error of theirs to read about.
    if (error instanceof DOMException && error.name === 'NotAllowedError') toast('No passkey was used.', 'info');
    else toast(errorText(error));
  }
}

function wire() {
  byId('make-form').addEventListener('submit', (event) => {
    event.preventDefault();
    showing(async () => {
      const body = {name: field('make-name').value, colour: field('make-colour').value};
      await signedInHere(await api('/api/profiles', {method: 'POST', body}));
    });
  });
  byId('code-form').addEventListener('submit', (event) => {
    event.preventDefault();
    showing(async () => {
      const answer = {code: field('code').value};
      await signedInHere(await api('/api/profiles/sign-in/code', {method: 'POST', body: {answer}}));
    });
  });
  byId('passkey-sign-in').addEventListener('click', () => showing(async () => {
    const options = await api('/api/profiles/sign-in/passkey/begin', {method: 'POST', body: {}});
    const answer = await usePasskey(options);
    await signedInHere(await api('/api/profiles/sign-in/passkey', {method: 'POST', body: {answer}}));
  }));
  byId('profile-form').addEventListener('submit', (event) => {
    event.preventDefault();
    showing(async () => {
      const body = {name: field('profile-name').value, colour: field('profile-colour').value};
      drawProfile(await asMe('/api/profiles/me', {method: 'PATCH', body}));
      toast('Saved.', 'info');
    });
  });
  byId('show-code').addEventListener('click', () => showing(showCode));
  byId('add-passkey').addEventListener('click', () => showing(async () => {
    const options = await asMe('/api/profiles/me/passkeys/begin', {method: 'POST'});
    const credential = await makePasskey(options);
    await asMe('/api/profiles/me/passkeys', {method: 'POST', body: {credential}});
    toast('Passkey added: sign in with it on any device that has it.', 'info');
    await refresh();
  }));
}

/** Show a new one-time code until it runs out (a new one voids it). */
async function showCode() {
  /** @type {{code: string, seconds: number}} */
  const made = await asMe('/api/profiles/me/codes', {method: 'POST'});
  const box = byId('one-time');
  const minutes = Math.round(made.seconds / 60);
  box.replaceChildren('On the other device, open this page and type ', h('code', {class: 'code'}, made.code),
    ` within ${plural(minutes, 'minute')}. It works once.`);
  box.hidden = false;
  setTimeout(() => {
    if (box.textContent && box.textContent.includes(made.code)) box.hidden = true;
  }, made.seconds * 1000);
}

wire();
refresh();
