// @ts-check
// The table page: one shell for every game (js/table/), and each game's own drawing
// where it has one (js/games/<registry name>.js, declared by js/games/contract.js).
// This file starts it: the seat's token, the buttons, the keyboard, the socket.
import {addSprite} from './cards.js';
import {TableSocket} from './conn.js';
import * as store from './store.js';
import {S, draw, link, setPainter} from './table/state.js';
import {NARROW} from './table/seats.js';
import {hello, onMessage, onState, watchdog} from './table/net.js';
import {rename, showHelp, showInvite, watchDialog} from './table/dialogs.js';
import {onKey} from './table/keyboard.js';
import {paint} from './table/paint.js';

/** The seat's token: from the address (#token=), else from this browser's storage. */
function readToken() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (params.has('watch')) return null;
  let token = params.get('token');
  const record = store.tableRecord(S.tableId);
  if (!token && record && record.token) token = record.token;
  if (token) {
    store.updateTable(S.tableId, {token});
    // Keep the seat in the address too, so that a bookmark or a reload keeps it.
    if (params.get('token') !== token) history.replaceState(null, '', `#token=${encodeURIComponent(token)}`);
  }
  return token;
}

function start() {
  addSprite();
  setPainter(paint);
  S.token = readToken();
  document.getElementById('help')?.addEventListener('click', showHelp);
  document.getElementById('invite')?.addEventListener('click', showInvite);
  document.getElementById('rename')?.addEventListener('click', rename);
  watchDialog();
  document.addEventListener('keydown', onKey);
  window.addEventListener('hashchange', () => location.reload());
  NARROW.addEventListener('change', draw); // the seats move between the oval and the row
  const socket = new TableSocket(S.tableId, {hello, message: onMessage, state: onState});
  link.socket = socket;
  setInterval(watchdog, 1000);
  // For tests and the curious: the state, and a way to drop the connection.
  /** @type {any} */ (window).pitkit = {state: S, socket};
  socket.start();
}

start();
