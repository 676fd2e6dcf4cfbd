// @ts-check
// Tables at your own pace (docs/turn-based.md): the time left on a move in words, and
// the lobby's choice of it, offered only for the turn-based games.

/**
 * The time left on a move, in words: "2 days 3 h left", "5 h 12 min left", "25 min left", "1:30 left", "42 s left".
 * @param {number} seconds
 */
export function timeLeftText(seconds) {
  const left = Math.max(0, Math.ceil(seconds));
  const days = Math.floor(left / 86400);
  const hours = Math.floor((left % 86400) / 3600);
  const minutes = Math.floor((left % 3600) / 60);
  if (days) return `${days} ${days === 1 ? 'day' : 'days'}${hours ? ` ${hours} h` : ''} left`;
  if (hours) return `${hours} h${minutes ? ` ${minutes} min` : ''} left`;
  if (left >= 600) return `${minutes} min left`;
  if (left >= 60) return `${minutes}:${String(left % 60).padStart(2, '0')} left`;
  return `${left} s left`;
}

/**
 * The lobby's own-pace fields, shown for a turn-based game and hidden (and left out of
 * the table made) for a game played in real time.
 * @param {boolean} realtime
 */
export function offerOwnPace(realtime) {
  const box = /** @type {HTMLElement} */ (document.getElementById('own-pace-box'));
  box.hidden = realtime;
  if (realtime) /** @type {HTMLInputElement} */ (document.getElementById('own-pace')).checked = false;
  showOwnPace();
}

/** Show the per-move limit and the timeout choice while "At your own pace" is ticked. */
export function showOwnPace() {
  const on = /** @type {HTMLInputElement} */ (document.getElementById('own-pace')).checked;
  /** @type {HTMLElement} */ (document.getElementById('own-pace-choices')).hidden = !on;
  // The turn timer is for a sitting; at your own pace each move has its own time.
  /** @type {HTMLSelectElement} */ (document.getElementById('turn-timer')).disabled = on;
}

/**
 * The settings "At your own pace" adds to a new table, or none.
 * @returns {{own_pace?: number, on_timeout?: string}}
 */
export function ownPaceSettings() {
  const on = /** @type {HTMLInputElement} */ (document.getElementById('own-pace')).checked;
  if (!on) return {};
  const limit = /** @type {HTMLSelectElement} */ (document.getElementById('own-pace-limit'));
  const timeout = /** @type {HTMLSelectElement} */ (document.getElementById('own-pace-timeout'));
  return {own_pace: Number(limit.value), on_timeout: timeout.value};
}
