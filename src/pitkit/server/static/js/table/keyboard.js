// @ts-check
// The keyboard: ? help, Esc clears, ← → move between your cards (Space picks one),
// Enter makes the picked play, and each action's own key (the game's, or 1-9).
import {S, clearSelection} from './state.js';
import {act, canAct} from './send.js';
import {confirmDialog, showHelp} from './dialogs.js';
import {parsedActions} from './controls.js';

/** @param {KeyboardEvent} event */
export function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target instanceof HTMLElement ? event.target : null;
  if (target && (target.matches('input, textarea, select') || target.isContentEditable)) return;
  if (S.dialog) {
    if (event.key === 'Enter' && !(target && target.matches('button, a'))) {
      confirmDialog();
      event.preventDefault();
    }
    return;
  }
  const key = event.key;
  if (key === '?') {
    showHelp();
    event.preventDefault();
    return;
  }
  if (key === 'Escape') {
    clearSelection();
    return;
  }
  const inHand = !!(target && target.closest('#hand'));
  if (key === 'ArrowLeft' || key === 'ArrowRight') {
    const cards = /** @type {HTMLElement[]} */ ([...document.querySelectorAll('#hand .card')]);
    if (!cards.length) return;
    S.focus = inHand ? (S.focus + (key === 'ArrowRight' ? 1 : -1) + cards.length) % cards.length : S.focus;
    cards.forEach((c, i) => c.setAttribute('tabindex', i === S.focus ? '0' : '-1'));
    cards[S.focus].focus();
    event.preventDefault();
    return;
  }
  if (key === 'Enter') {
    // Enter makes the picked play, even from a focused card (Space picks cards);
    // on any other button it is that button's own click.
    const first = document.querySelector('#actions .act.exact:not(:disabled), #actions .act.primary:not(:disabled)');
    if (target && target.matches('button, a') && !(inHand && first)) return;
    if (first instanceof HTMLElement) {
      first.click();
      event.preventDefault();
    }
    return;
  }
  if (key.length === 1 && S.view && S.game) {
    const wanted = key.toLowerCase();
    const action = parsedActions().find((a) => a.key && a.key.toLowerCase() === wanted);
    if (action && canAct()) {
      act(action.text);
      event.preventDefault();
    }
  }
}
