// @ts-check
// The lobby's "Run a tournament" form: opens an event and goes to its manager's desk
// (the desk keeps the manager's link in this browser; docs/tournaments.md). Its one
// option, added here: a check-in desk, where only players present are seated.
import {api, errorText, h} from './dom.js';

const form = /** @type {HTMLFormElement} */ (document.getElementById('new-event'));
const kind = /** @type {HTMLSelectElement} */ (document.getElementById('event-kind'));
const nameInput = /** @type {HTMLInputElement} */ (document.getElementById('event-name'));
const problem = /** @type {HTMLElement} */ (document.getElementById('event-error'));
const checkIn = /** @type {HTMLInputElement} */ (h('input', {type: 'checkbox', id: 'event-check-in', name: 'check_in'}));
problem.before(h('div', {class: 'form-row'},
  h('label', {for: 'event-check-in'}, checkIn, ' Check players in: seat only those present (they scan their slip, or the desk ticks them)')));

/** The kinds of tournament, into the form's list once the server names them. */
const kindsShown = api('/api/events/kinds').then((/** @type {{kind: string, title: string}[]} */ kinds) => {
  kind.replaceChildren(...kinds.map((k) => h('option', {value: k.kind}, k.title)));
});
kindsShown.catch((error) => {
  problem.textContent = `The tournament form cannot load: ${errorText(error)}`;
  problem.hidden = false;
});

// Wired at once, not once the kinds have come: a click before that (a slow hall's
// Wi-Fi) must not send the form as a plain page load.
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  problem.hidden = true;
  if (!nameInput.value.trim()) {
    problem.textContent = 'Give the tournament a name.';
    problem.hidden = false;
    nameInput.focus();
    return;
  }
  try {
    await kindsShown;
    const options = checkIn.checked ? {check_in: true} : {};
    const created = await api('/api/events', {method: 'POST', body: {kind: kind.value, name: nameInput.value, options}});
    location.assign(created.manager.url.replace(/^https?:\/\/[^/]+/, ''));
  } catch (error) {
    problem.textContent = errorText(error);
    problem.hidden = false;
  }
});
