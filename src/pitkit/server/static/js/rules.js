// @ts-check
// A game's rules for players (/rules/<game>): how to play, in the words the table's own
// help uses, and each rule option with what it means and its default. The table page
// and the lobby's options link here.
import {api, errorText, h} from './dom.js';
import {genericHelp} from './table/generic.js';

/** @typedef {import('./wire.js').GameInfo} GameInfo */

/**
 * An option's default as a player reads it.
 * @param {unknown} value
 */
function shown(value) {
  if (value === true) return 'on';
  if (value === false) return 'off';
  if (value == null || value === '') return 'none';
  return String(value);
}

async function start() {
  const name = decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() || '');
  const how = /** @type {HTMLElement} */ (document.getElementById('how'));
  /** @type {GameInfo | undefined} */
  let game;
  try {
    /** @type {GameInfo[]} */
    const games = await api('/api/games');
    game = games.find((g) => g.name === name);
  } catch (error) {
    how.replaceChildren(h('p', {}, `The rules did not load: ${errorText(error)}.`));
    return;
  }
  if (!game) {
    how.replaceChildren(h('p', {}, 'This server has no such game.'));
    return;
  }
  /** @type {string[]} */
  let help = genericHelp(game);
  if (game.module) {
    try {
      help = (await import(game.module)).default.help || help;
    } catch (error) {
      console.warn(`${game.module} did not load`, error);
    }
  }
  document.title = `${game.title}: rules — pitkit`;
  /** @type {HTMLElement} */ (document.getElementById('title')).textContent = `${game.title}: the rules`;
  const players = game.min_players === game.max_players ? `${game.min_players} players` : `${game.min_players} to ${game.max_players} players`;
  /** @type {HTMLElement} */ (document.getElementById('subtitle')).textContent = `${players}${game.realtime ? ' · everyone plays at once' : ''}`;
  how.replaceChildren(h('p', {class: 'intro'}, game.summary), ...help.filter((p) => p !== game?.summary).map((p) => h('p', {}, p)));
  const options = /** @type {HTMLElement} */ (document.getElementById('options'));
  options.replaceChildren(...game.rules.flatMap((o) => [
    h('dt', {id: `option-${o.name}`}, o.label),
    h('dd', {}, `${o.doc[0].toUpperCase()}${o.doc.slice(1)}. Default: ${shown(o.default)}.`),
  ]));
  // Opened from an option's help in the lobby: show that option.
  const target = location.hash && document.getElementById(location.hash.slice(1));
  if (target) {
    target.classList.add('highlight');
    target.scrollIntoView();
  }
}

start();
