// @ts-check
// The table page's one state object, and the redraw that follows any change to it.
// Every module of the shell (js/table/) reads and changes `S`; only the drawing
// modules touch the page, and only from `S`.

/** @typedef {import('../games/contract.js').View<any>} View */
/** @typedef {import('../wire.js').GameEvent} GameEvent */
/** @typedef {import('../wire.js').TableInfo} TableInfo */
/** @typedef {import('../wire.js').GameInfo} GameInfo */
/** @typedef {import('../games/contract.js').Game} Game */
/** @typedef {import('../conn.js').TableSocket} TableSocket */

/**
 * A line of the history panel; `cls` styles it (hand-head, note, ev-<event type>).
 * @typedef {{text: string, cls: string}} LogLine
 */

/**
 * An action sent and not yet answered: its id, its text, when it was sent (ms).
 * @typedef {{id: number, text: string, at: number}} Pending
 */

/**
 * The pause before the next hand, as the server last told it: when its countdown runs
 * out (Date.now() ms), the seats whose players are ready, and those still awaited.
 * @typedef {{ends: number, ready: number[], waiting: number[]}} NextHand
 */

/**
 * The state of the page.
 *
 * The connection and the table:
 * @typedef {object} TableState
 * @property {string} tableId             from the address, /t/<id>
 * @property {string | null} token         this seat's secret (null: watching)
 * @property {TableInfo | null} table      the table as the server last sent it
 * @property {number | null} seat          this page's seat (null: watching)
 * @property {'connecting' | 'open' | 'down' | 'final' | 'replay'} conn  the socket's state
 *   ('replay': none, the page replays a finished match)
 * @property {{match: number, as: number | null} | null} replay  the match replayed, and as
 *   which seat (null: all-seeing); null at the table itself
 * @property {number | string | undefined} connDetail  seconds to the next try, or why final
 * @property {string | null} final         why the page gave up (shown in the banner)
 * @property {boolean} idle                whether it gave up as a spectator let go for idleness
 *
 * The game:
 * @property {GameInfo | null} info        the game as GET /api/games lists it
 * @property {Game | null} game            its module, every hook filled in (null: loading)
 *
 * The match, as the server sent it (docs/protocol.md, "Versions"):
 * @property {number | null} match         the match number
 * @property {number | null} version       the last version whose events we hold
 * @property {number | null} viewVersion   the version of `view`
 * @property {View | null} view            the seat's view
 * @property {string[]} legal              the seat's legal actions as of `version`
 * @property {number[]} toAct              the seats to act as of `version`
 * @property {boolean} over                whether the match is over
 * @property {number | null} turnEnds      when the turn timer runs out (Date.now() ms), if it runs
 * @property {number | null} sortingEnds   when Pit's sorting period ends (Date.now() ms), while it runs
 * @property {NextHand | null} pause       the pause before the next hand, while it lasts
 * @property {number | null} overShown     the match whose end-of-match window was opened
 * @property {GameEvent[]} handEvents      this hand's events (the view's history)
 * @property {number[] | null} lastScores  the scores after the last hand
 *
 * The history panel:
 * @property {LogLine[]} log
 * @property {number} logEpoch             bumped when the log is rebuilt from scratch
 * @property {number} nextHand             the hand being (or about to be) dealt
 *
 * The player's hand and actions:
 * @property {string[]} handNames          the hand as shown (sorted the game's way)
 * @property {number[]} selection          indices into `handNames`, in the order picked
 * @property {number} focus                the hand card that takes the keyboard focus
 * @property {Pending | null} pending      the action in flight
 *
 * Asking for the full view:
 * @property {boolean} syncing             a sync is in flight
 * @property {'gap' | 'refresh' | null} syncWhy  gap: events were missed; refresh: the view lags
 * @property {ReturnType<typeof setTimeout> | null} syncTimer
 * @property {number} lastSyncAt           when the last sync was sent (ms)
 *
 * @property {import('../wire.js').SaidMessage[]} chat  the latest chat messages, oldest first
 *
 * @property {'summary' | 'over' | 'help' | 'invite' | 'name' | 'seat' | null} dialog  the window open
 * @property {string | null} letGo  why the server let this page's seat go (its last words before closing)
 */

/** @type {TableState} */
export const S = {
  tableId: decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() || ''),
  token: null,
  table: null,
  seat: null,
  conn: 'connecting',
  replay: null,
  connDetail: undefined,
  final: null,
  idle: false,
  info: null,
  game: null,
  match: null,
  version: null,
  viewVersion: null,
  view: null,
  legal: [],
  toAct: [],
  over: false,
  overShown: null,
  turnEnds: null,
  sortingEnds: null,
  pause: null,
  handEvents: [],
  lastScores: null,
  log: [],
  logEpoch: 0,
  nextHand: 1,
  handNames: [],
  selection: [],
  focus: 0,
  pending: null,
  syncing: false,
  syncWhy: null,
  syncTimer: null,
  lastSyncAt: 0,
  chat: [],
  dialog: null,
  letGo: null,
};

/** The socket to the table (set once at start). @type {{socket: TableSocket | null}} */
export const link = {socket: null};

/** Whether the game is played in real time (Pit): no turns, actions on older versions. */
export function realtime() {
  return !!(S.info && S.info.realtime);
}

// -- the redraw ------------------------------------------------------------------------

/** @type {() => void} */
let painter = () => {};
let queued = false;

/**
 * The function that draws the page from `S` (js/table/paint.js sets it).
 * @param {() => void} paint
 */
export function setPainter(paint) {
  painter = paint;
}

/** Redraw on the next frame: many messages in a burst make one redraw. */
export function draw() {
  if (queued) return;
  queued = true;
  requestAnimationFrame(() => {
    queued = false;
    try {
      painter();
    } catch (error) {
      console.error(error);
    }
  });
}

// -- the selection ----------------------------------------------------------------------

/**
 * Select these cards of the hand (by name; each name once per card).
 * @param {string[]} wanted
 * @param {boolean} [redraw]
 */
export function selectByNames(wanted, redraw = true) {
  /** @type {number[]} */
  const selection = [];
  for (const name of wanted) {
    const i = S.handNames.findIndex((n, j) => n === name && !selection.includes(j));
    if (i >= 0) selection.push(i);
  }
  S.selection = selection;
  if (redraw) draw();
}

export function clearSelection() {
  S.selection = [];
  draw();
}

/** The picked cards' names, in the order picked. */
export function selectedNames() {
  return S.selection.map((i) => S.handNames[i]);
}
