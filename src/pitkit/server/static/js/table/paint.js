// @ts-check
// Drawing the whole page from the state: the body's data attributes (which the tests
// and the stylesheet read), the header, the connection, then each part's own drawing.
import {h, plural} from '../dom.js';
import {S, draw, link, realtime} from './state.js';
import {seatName} from './seats.js';
import {ctx} from './ctx.js';
import {canAct} from './send.js';
import {overFromView} from './receive.js';
import {drawFelt} from './felt.js';
import {drawMine} from './controls.js';
import {drawScores} from './scores.js';
import {drawLog, logAtEnd} from './history.js';
import {drawChat} from './chat.js';
import {drawReplay} from './replay.js';
import {drawSummaryPace} from './dialogs.js';

/** Draw the whole page from `S` (the painter of state.js's `draw`). */
export function paint() {
  const atEnd = logAtEnd(); // a read: before the first write (see logAtEnd)
  const body = document.body;
  body.dataset.state = S.table ? S.table.status : 'loading';
  body.dataset.conn = S.conn;
  body.dataset.match = String(S.match ?? '');
  body.dataset.version = String(S.version ?? '');
  body.dataset.seat = String(S.seat ?? '');
  body.dataset.busy = String(!!S.pending || S.viewVersion !== S.version || S.syncing);
  body.dataset.turn = S.legal.length && canAct() ? 'me' : 'other';
  body.dataset.game = S.table ? S.table.game : '';
  if (S.info && !realtime()) {
    document.title = `${body.dataset.turn === 'me' ? '● Your turn · ' : ''}${S.info.title} — pitkit`;
  }
  drawHeader();
  drawConnection();
  drawFelt();
  drawMine();
  drawScores();
  drawLog(atEnd);
  drawChat();
  drawReplay();
  drawSummaryPace();
  // A page that arrived after the match ended shows its result once the game is loaded.
  if (S.over && S.overShown !== S.match && !S.dialog) overFromView();
}


function drawHeader() {
  const title = document.getElementById('title');
  const sub = document.getElementById('subtitle');
  const rename = document.getElementById('rename');
  if (!S.table || !title || !sub || !rename) return;
  title.textContent = S.table.title;
  const parts = [`table ${S.table.id}`];
  if (S.replay) parts.push(`replay of game ${S.replay.match}`);
  if (S.view && S.view.match) {
    const hands = S.game ? S.game.handsInMatch(ctx) : null;
    parts.push(`hand ${S.view.match.hand}${hands ? ` of ${hands}` : ''}`);
  }
  if (S.replay) parts.push(S.seat == null ? 'every hand shown' : `as ${seatName(S.seat)} saw it`);
  else {
    if (S.table.match > 1) parts.push(`game ${S.table.match}`);
    parts.push(S.seat == null ? 'watching' : `you are ${seatName(S.seat)}`);
    if (S.table.spectators) parts.push(plural(S.table.spectators, 'spectator'));
  }
  sub.textContent = parts.join(' · ');
  rename.hidden = S.seat == null || !!S.replay;
  const rules = document.getElementById('rules-link');
  if (rules instanceof HTMLAnchorElement) {
    rules.href = `/rules/${encodeURIComponent(S.table.game)}`;
    rules.hidden = false;
  }
}

/** @type {Record<string, string>} */
const CONN_TEXTS = {
  connecting: 'Connecting…',
  open: 'Connected',
  down: 'Connection lost: reconnecting…',
  final: 'Disconnected',
  replay: 'Replay',
};

/** What a page whose socket is closed for good offers: to watch again (a spectator let
 * go for idleness), else the lobby. */
function finalChoice() {
  if (!S.idle) return h('a', {href: '/'}, 'Back to the lobby');
  return h('button', {type: 'button', onclick: () => {
    S.final = null;
    S.idle = false;
    link.socket?.start();
    draw();
  }}, 'Watch again');
}

function drawConnection() {
  const pill = document.getElementById('conn');
  const banner = document.getElementById('banner');
  if (!pill || !banner) return;
  pill.className = `conn ${S.conn}`;
  pill.textContent = CONN_TEXTS[S.conn] || S.conn;
  let message = null;
  if (S.final) message = `${S.final} `;
  else if (S.conn === 'down') message = `Connection lost. Reconnecting in ${Math.max(1, Math.round(Number(S.connDetail) || 1))} s…`;
  else if (S.conn === 'connecting' && S.view) message = 'Reconnecting…';
  banner.hidden = !message;
  if (message) {
    banner.replaceChildren(message, S.final ? finalChoice() : h('button', {
      type: 'button', onclick: () => link.socket?.retryNow(),
    }, 'Try now'));
  }
}
