// @ts-check
// The table page: one shell for every game (js/table/), and each game's own drawing
// where it has one (js/games/<registry name>.js, declared by js/games/contract.js).
// This file starts it: the seat's token, the buttons, the keyboard, the socket.
import {addSprite} from './cards.js';
import {ApiError, api, errorText, toast} from './dom.js';
import {TableSocket} from './conn.js';
import * as store from './store.js';
import {signedIn, sitAs} from './profile.js';
import {S, draw, link, setPainter} from './table/state.js';
import {COMPACT} from './table/seats.js';
import {hello, watchdog} from './table/send.js';
import {onMessage, onState} from './table/receive.js';
import {askName, rename, showHelp, showInvite, watchDialog} from './table/dialogs.js';
import {onKey} from './table/keyboard.js';
import {paint} from './table/paint.js';
import {startEffects} from './table/effects.js';
import {replayAsked, startReplay} from './table/replay.js';

/**
 * The seat's token: from the address (#token=), else from this browser's storage;
 * `fresh`: an invitation this browser has not used yet (a player's own link to continue
 * on another device, #token=…&continue, is a seat already taken: not fresh).
 * @returns {{token: string | null, fresh: boolean}}
 */
function readToken() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (params.has('watch')) return {token: null, fresh: false};
  let token = params.get('token');
  const record = store.tableRecord(S.tableId);
  const fresh = !!token && !(record && record.token === token) && !params.has('continue');
  if (!token && record && record.token) token = record.token;
  // Keep the seat in the address too, so that a bookmark or a reload keeps it. This
  // browser stores a token once the table has taken it (the welcome): a spent invitation
  // opened here must not replace the seat this browser holds.
  if (token && params.get('token') !== token) history.replaceState(null, '', `#token=${encodeURIComponent(token)}`);
  return {token, fresh};
}

/**
 * Before taking a seat by an invitation, a newcomer says their name (a browser that
 * knows it from the lobby or an earlier table does not ask again; a tournament's
 * table seats players by the event's names).
 */
async function greet() {
  if (store.playerName()) return;
  /** @type {import('./wire.js').TableInfo} */
  let table;
  try {
    table = await api(`/api/tables/${encodeURIComponent(S.tableId)}`);
  } catch {
    return; // the socket will say what is wrong
  }
  if (table.settings.event || !table.seats.some((s) => s.kind === 'open')) return;
  await askName('Take your seat', 'You are invited to play. What should the others call you?', 'Sit down');
}

/**
 * A signed-in browser takes its seat as its profile's (docs/profiles.md): an
 * invitation's open seat is claimed under the profile's name, and a seat this browser
 * took before signing in becomes the profile's, once. Returns the seat's token to say
 * hello with (the seat's own secret, for an invitation claimed), or null when the
 * profile could not take it (the page then goes on as for anyone).
 * @param {string} token
 * @param {boolean} fresh  an invitation this browser has not used yet
 * @returns {Promise<string | null>}
 */
async function sitAsProfile(token, fresh) {
  const signed = signedIn();
  const record = store.tableRecord(S.tableId);
  if (!signed || (!fresh && record && record.profile === signed.profile.id)) return null;
  try {
    const sat = await sitAs(S.tableId, token);
    const secret = sat.token || token;
    store.updateTable(S.tableId, {token: secret, profile: signed.profile.id});
    if (secret !== token) history.replaceState(null, '', `#token=${encodeURIComponent(secret)}`);
    return secret;
  } catch (error) {
    // One profile, one seat a table: say why, and go on as anyone would.
    if (error instanceof ApiError && error.status === 409) toast(errorText(error));
    return null;
  }
}

async function start() {
  addSprite();
  setPainter(paint);
  window.addEventListener('hashchange', () => location.reload());
  COMPACT.addEventListener('change', draw); // the seats move between the oval and the row
  document.getElementById('help')?.addEventListener('click', showHelp);
  const replay = replayAsked();
  if (replay) {
    // A finished match replayed: no seat, no socket, nothing to play.
    /** @type {any} */ (window).pitkit = {state: S, draw};
    await startReplay(replay);
    return;
  }
  const {token, fresh} = readToken();
  const mine = token ? await sitAsProfile(token, fresh) : null;
  S.token = mine || token;
  if (fresh && !mine) await greet();
  document.getElementById('invite')?.addEventListener('click', showInvite);
  document.getElementById('rename')?.addEventListener('click', rename);
  watchDialog();
  startEffects();
  document.addEventListener('keydown', onKey);
  const watching = () => S.seat == null;
  const socket = new TableSocket(S.tableId, {hello, message: onMessage, state: onState, watching});
  link.socket = socket;
  setInterval(watchdog, 1000);
  // For tests and the curious: the state, a redraw of it, and a way to drop the connection.
  /** @type {any} */ (window).pitkit = {state: S, draw, socket};
  socket.start();
}

start();
