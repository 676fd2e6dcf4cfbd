// @ts-check
// `ctx`: the shell as a game module sees it (the Ctx of js/games/contract.js), the
// state read-only and what a module may do.
import {S, selectByNames, selectedNames} from './state.js';
import {secondsLeft} from './pace.js';
import {does, seatName, toward, verb, who} from './seats.js';
import {act, canAct, judge} from './send.js';

/** @type {import('../games/contract.js').Ctx} */
export const ctx = {
  get me() { return S.seat; },
  get view() { return S.view; },
  get table() { return S.table; },
  get info() { return S.info; },
  get rules() { return (S.table && S.table.rules) || {}; },
  get players() { return S.table ? S.table.players : 0; },
  get legal() { return S.legal; },
  get events() { return S.handEvents; },
  get over() { return S.over; },
  get selected() { return selectedNames(); },
  get sortingLeft() { return S.sortingEnds == null ? null : secondsLeft(S.sortingEnds); },
  name: seatName,
  who,
  does,
  verb,
  act: (text) => act(text),
  canAct: () => canAct(),
  judge: (args) => judge(args),
  selectCards: (names) => selectByNames(names),
  toward,
};
