// @ts-check
// Finding a game's drawing: the game as GET /api/games lists it, and its own module,
// loaded from the address the server gives (`module`, found by the game's registry
// name). Each hook the module leaves out is the generic one (js/table/generic.js),
// so a game with no module at all is drawn from its view and view schema alone.
import {api, errorText, toast} from '../dom.js';
import {S, draw} from './state.js';
import {GENERIC, genericHelp} from './generic.js';

/** @typedef {import('../wire.js').GameInfo} GameInfo */
/** @typedef {import('../games/contract.js').GameModule<any>} GameModule */

/**
 * Load the game `name` into `S.info` and `S.game`.
 * @param {string} name  its registry name
 */
export async function loadGame(name) {
  /** @type {GameInfo | undefined} */
  let info;
  try {
    /** @type {GameInfo[]} */
    const games = await api('/api/games');
    info = games.find((g) => g.name === name);
  } catch (error) {
    S.final = `The list of games did not load: ${errorText(error)}.`;
    draw();
    return;
  }
  if (!info) {
    S.final = `This server does not know the game ${name}.`;
    draw();
    return;
  }
  /** @type {GameModule} */
  let module = {};
  if (info.module) {
    try {
      module = (await import(info.module)).default || {};
    } catch (error) {
      // Still playable: the generic drawing needs nothing of the module.
      console.warn(`${info.module} did not load`, error);
      toast(`${info.title}'s own drawing did not load: the table is drawn plainly.`, 'info');
    }
  }
  S.info = info;
  S.game = {...GENERIC, help: genericHelp(info), ...module};
  document.title = `${info.title} — pitkit`;
  draw();
}
