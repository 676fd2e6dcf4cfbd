// @ts-check
// Your play: the line that says what to do, the action bar and your hand. Cards are
// picked toward the legal actions that name them (js/picker.js); a pick that spells
// exactly one action plays it (or offers it as the gold button).
import {h, morph, plural, sentence, toast, unmorphed} from '../dom.js';
import {cardEl, cardName, withSuits} from '../cards.js';
import {pick} from '../picker.js';
import {timeLeftText} from '../own-pace.js';
import {S, clearSelection, draw, realtime, selectByNames} from './state.js';
import {seatName} from './seats.js';
import {ctx} from './ctx.js';
import {act, askRematch, canAct, hosting, startRematchNow} from './send.js';

/** @typedef {import('../games/contract.js').ParsedAction} ParsedAction */
/** @typedef {import('../games/contract.js').Content} Content */

/**
 * The legal actions as the game reads them.
 * @returns {ParsedAction[]}
 */
export function parsedActions() {
  const game = S.game;
  const view = S.view;
  if (!game || !view) return [];
  return S.legal.map((text) => ({...game.parseAction(text, view, ctx), text}));
}

/**
 * Where an action is offered: by picking its cards, as a button of its own, or by the centre.
 * @param {ParsedAction} a
 */
function placeOf(a) {
  return a.place || (a.cards && a.cards.length ? 'hand' : 'menu');
}

export function drawMine() {
  const hint = document.getElementById('hint');
  const bar = document.getElementById('actions');
  const handBox = document.getElementById('hand');
  const mine = document.getElementById('mine');
  if (!hint || !bar || !handBox || !mine) return;
  const game = S.game;
  const view = S.view;
  if (!view || !game) {
    hint.textContent = S.table && S.table.status === 'waiting' ? 'Your cards appear here when the game starts.' : '';
    bar.replaceChildren();
    handBox.replaceChildren();
    return;
  }
  const actions = parsedActions();
  const spectator = S.seat == null;
  mine.classList.toggle('spectator', spectator);

  // The hand, sorted the game's way; the selection survives a redraw by card names.
  const names = spectator ? [] : game.sortHand(view.hand || [], view, ctx);
  if (names.join(' ') !== S.handNames.join(' ')) {
    const keep = S.selection.map((i) => S.handNames[i]);
    S.handNames = names;
    S.selection = [];
    selectByNames(keep, false);
  }
  const cardActions = actions.filter((a) => a.cards && a.cards.length && placeOf(a) !== 'centre');
  const picked = pick(names, S.selection, cardActions, game.ordered);
  const ready = canAct();
  const selected = S.selection.map((i) => names[i]);

  // The line above the hand: whose turn, and what to do.
  let text;
  if (S.replay) text = S.over ? overText() : `In the replay: ${waitingFor()}`;
  else if (S.over) text = overText();
  else if (S.pause) text = pauseText(spectator);
  else if (spectator) text = `You are watching. ${waitingFor()}`;
  else if (S.legal.length && ready) text = game.hint(view, ctx, actions) || 'Your turn.';
  else if (S.legal.length) text = 'Sending…';
  else text = waitingFor();
  const clock = turnClock();
  const notice = ownPaceNotice(!!(S.legal.length && ready && !spectator && !S.pause && !S.over && !S.replay));
  morph(hint, h('p', {}, notice, keyHints(text), clock && !notice ? h('span', {class: 'turn-clock'}, ` ${clock}`) : null));
  hint.classList.toggle('your-turn', !!(S.legal.length && !realtime() && !spectator && !S.pause));

  // The action bar: completed selections first (gold), then the other actions.
  const items = [];
  picked.exact.forEach((a, n) => items.push(actionButton(a, {exact: true, first: n === 0, ready})));
  if (selected.length && !picked.exact.length && S.legal.length) {
    const tried = game.tryPlay(selected, view, ctx);
    if (tried) items.push(actionButton({text: tried, label: 'Play', title: 'Not a legal play: the server will say why'}, {ready, cls: 'try'}));
  }
  for (const a of actions) {
    if (placeOf(a) === 'menu' && !picked.exact.includes(a)) items.push(actionButton(a, {ready}));
  }
  if (S.over && !spectator && S.table && S.table.status === 'over') {
    // Also here, not only in the end-of-match window, which the player may have closed.
    const asked = S.table.seats[S.seat ?? 0]?.rematch;
    items.push(h('button', {type: 'button', class: 'primary rematch', disabled: !!asked, onclick: askRematch},
      asked ? 'Waiting for the others…' : 'Play again'));
    // Only the host may start without everyone's yes, and the button says so.
    if (asked && hosting()) {
      items.push(h('button', {type: 'button', class: 'rematch-now', onclick: startRematchNow},
        'Start now, without waiting'));
    }
  }
  if (selected.length) {
    items.push(h('button', {type: 'button', class: 'clear', onclick: () => clearSelection()}, 'Clear ', h('kbd', {}, 'Esc')));
  }
  morph(bar, h('div', {}, h('div', {class: 'buttons', role: 'group', 'aria-label': 'Your moves'}, items),
    h('div', {class: 'selection-info', 'aria-live': 'polite'})));
  // What the selection makes, from the game (perhaps from the server's judge): drawn
  // into the live element, and only when the selection or the position changed.
  const info = /** @type {HTMLElement} */ (bar.querySelector('.selection-info'));
  unmorphed.add(info);
  const infoKey = `${S.viewVersion}|${selected.join(' ')}|${S.legal.length}`;
  if (info.dataset.for !== infoKey) {
    info.dataset.for = infoKey;
    info.replaceChildren();
    if (!spectator) fill(info, game.selectionInfo(selected, picked.exact, view, ctx));
  }

  // The cards.
  const active = document.activeElement;
  const focusedCard = active instanceof Element && active.closest('#hand .card');
  S.focus = Math.min(S.focus, Math.max(0, names.length - 1));
  const cards = names.map((name, i) => {
    const isSelected = S.selection.includes(i);
    const playable = picked.next.has(i) && !!S.legal.length;
    const el = cardEl(name, {
      tag: 'button', size: 'lg',
      cls: `${isSelected ? 'selected' : ''} ${playable ? 'playable' : ''}`,
      attrs: {
        'aria-pressed': String(isSelected),
        tabindex: i === S.focus ? '0' : '-1',
        'aria-describedby': playable ? 'playable-note' : null,
      },
    });
    el.onclick = () => {
      S.focus = i;
      onCardClick(i, names, cardActions);
    };
    return el;
  });
  morph(handBox, h('div', {}, cards));
  handBox.setAttribute('aria-label', spectator ? 'No hand: you are watching' : `Your hand, ${plural(names.length, 'card')}`);
  const live = handBox.querySelectorAll('.card');
  const target = live[S.focus];
  // Keep the keyboard's place in the redrawn hand without scrolling: the hand is in view
  // by the layout, and a scroll here pushed the table off the top of a phone's screen.
  if (focusedCard && target instanceof HTMLElement && active !== target) target.focus({preventScroll: true});
}

/**
 * A hint's words, with the keys it names ("(P)", "(Enter)", "(keys 2, 3, 4)") marked as
 * for a keyboard only: the stylesheet hides them on a touch screen.
 * @param {string} text
 */
function keyHints(text) {
  return text.split(/( \((?:[A-Z]|Enter|Esc|keys [^)]*)\))/)
    .map((part, i) => (i % 2 ? h('span', {class: 'keyboard-only'}, part) : part));
}

/** @type {WeakMap<Element, object>} */
const waiting = new WeakMap();

/**
 * Put a game's content (an element, a text, or a Promise of either) into `box`.
 * @param {HTMLElement} box
 * @param {Content} content
 */
function fill(box, content) {
  if (content == null) return;
  if (content instanceof Promise) {
    const token = {};
    box.dataset.wait = '1';
    waiting.set(box, token);
    content.then((result) => {
      if (waiting.get(box) !== token) return;
      delete box.dataset.wait;
      box.replaceChildren();
      fill(box, result);
    });
    return;
  }
  box.append(content instanceof Node ? content : String(content));
}

/**
 * A label's text with card codes said as card names, for screen readers ("Play 7 of hearts").
 * @param {string} text
 */
function spoken(text) {
  return text.replace(/\b(?:[2-9TJQKA][CDHS]|RJ|BJ)\b/g, (code) => cardName(code));
}

/**
 * An action's button: gold when it is the pick's play; its key on it.
 * @param {ParsedAction} a
 * @param {{exact?: boolean, first?: boolean, ready?: boolean, cls?: string}} [options]
 */
function actionButton(a, {exact = false, first = false, ready = true, cls = ''} = {}) {
  const key = first ? 'Enter' : a.key;
  const label = a.label || a.text;
  const words = typeof label === 'string' ? label : null;
  return h('button', {
    type: 'button',
    class: `act ${exact ? 'exact primary' : ''} ${a.primary ? 'primary' : ''} ${cls}`.trim(),
    disabled: !ready,
    title: a.title || null,
    'aria-label': words && spoken(words) !== words ? spoken(words) : null,
    'aria-keyshortcuts': key || null,
    dataset: {action: a.text},
    onclick: () => act(a.text),
  }, words != null ? withSuits(words) : label, key ? h('kbd', {}, key.length === 1 ? key.toUpperCase() : key) : null);
}

/** The turn timer's count, "42 s left", "1:30 left", "23 h 5 min left", while it runs. */
function turnClock() {
  if (!S.turnEnds || S.over || !S.toAct.length) return null;
  return timeLeftText((S.turnEnds - Date.now()) / 1000);
}

/**
 * At a table at your own pace, the notice that the move is yours, and its time left
 * (the page's title says it too: "● Your turn").
 * @param {boolean} mine whether this page's player may act now
 */
function ownPaceNotice(mine) {
  if (!mine || !S.table || !S.table.settings.own_pace) return null;
  const clock = turnClock();
  return h('strong', {class: 'turn-notice'}, `It's your move${clock ? `: ${clock.replace(/ left$/, '')} left to make it` : ''}. `);
}

/** "The game is over: you win 850 to 815 after 11 hands." (the server's words) */
function overText() {
  const outcome = S.view && S.view.match ? S.view.match.outcome : null;
  return outcome ? `The game is over. ${sentence(outcome.summary)}` : 'The game is over.';
}

/**
 * Between hands: the next hand is dealt and waits for the people at the table.
 * @param {boolean} spectator
 */
function pauseText(spectator) {
  if (spectator) return 'You are watching. The next hand starts when the players are ready.';
  if (S.seat != null && S.pause && S.pause.waiting.includes(S.seat)) return 'Your new cards are dealt. The next hand starts when everyone is ready.';
  return 'You are ready. The next hand starts when everyone is.';
}

/** "Waiting for Ada…", or the game's own words. */
export function waitingFor() {
  if (!S.view || !S.game) return '';
  const text = S.game.waitingText(S.view, ctx);
  if (text) return text;
  const names = S.toAct.filter((i) => i !== S.seat).map(seatName);
  if (!names.length) return '';
  return `Waiting for ${names.join(' and ')}…`;
}

/**
 * A click on the i-th card of the hand: pick it, unpick it, or play.
 * @param {number} i
 * @param {string[]} names
 * @param {ParsedAction[]} cardActions
 */
function onCardClick(i, names, cardActions) {
  const game = S.game;
  const view = S.view;
  if (S.seat == null || !game || !view) return;
  const ordered = game.ordered;
  if (S.selection.includes(i)) {
    // Unpicking a card of an ordered pick drops what was picked after it.
    const at = S.selection.indexOf(i);
    S.selection = ordered ? S.selection.slice(0, at) : S.selection.filter((j) => j !== i);
    draw();
    return;
  }
  const now = pick(names, S.selection, cardActions, ordered);
  if (!now.next.has(i)) {
    if (canAct() && S.legal.length) {
      // Not a legal play: send it anyway so that the server says why (it changes nothing).
      const text = game.tryCard(names[i], S.selection.map((j) => names[j]), view, ctx);
      if (text) {
        act(text);
        return;
      }
    }
    if (!game.multi) {
      if (!S.legal.length) toast(waitingFor() || 'It is not your turn.', 'info', 2000);
      return;
    }
  }
  S.selection = [...S.selection, i];
  const after = pick(names, S.selection, cardActions, ordered);
  const auto = typeof game.autoPlay === 'function' ? game.autoPlay(view) : game.autoPlay;
  if (auto && after.exact.length === 1 && !after.partial && canAct()) {
    act(after.exact[0].text);
    return;
  }
  draw();
}
