// @ts-check
// The hall's desk, for either kind of event: the slips to print, and at an event that
// checks its players in (pitkit/tournaments/checkin.py) who is present. A player is
// present once they open their own link (the shell checks them in: `checkInOnOpen`)
// or once the manager ticks them here; only present players are seated.
import {h, plural} from '../dom.js';
import {clock, note, panel} from './ui.js';

/** @typedef {import('./contract.js').EventContext} EventContext */
/** @typedef {import('../wire.js').CheckInView} CheckInView */

/**
 * The event's check-in desk (every kind's view has one).
 * @param {EventContext} ctx
 * @returns {CheckInView}
 */
export function checkIn(ctx) {
  return /** @type {{check_in: CheckInView}} */ (ctx.event.view).check_in;
}

/**
 * How a player came to be present or absent, in a few words.
 * @param {EventContext} ctx
 * @param {string} name
 */
function how(ctx, name) {
  const mark = checkIn(ctx).marks[name];
  if (!mark) return 'not here yet';
  const entry = ctx.event.log.find((e) => e.seq === mark.entry);
  const at = entry ? ` ${clock(entry.at)}` : '';
  if (!mark.present) return `marked absent${at}`;
  return mark.by === name ? `opened their link${at}` : `ticked by ${mark.by}${at}`;
}

/**
 * One player's line: a box the manager ticks (present) or clears (absent).
 * @param {EventContext} ctx
 * @param {string} name
 */
function line(ctx, name) {
  const present = checkIn(ctx).present.includes(name);
  const id = `present-${name.replace(/\W+/g, '-')}`;
  // The box shows what the server says (the shell sets bound fields after each
  // redraw), or while an entry is on its way what was just ticked: a tick the server
  // refuses does not stay ticked.
  const key = `present:${name}`;
  if (!ctx.busy) ctx.forms[key] = present;
  const tick = h('input', {type: 'checkbox', id, 'data-bind': key, disabled: ctx.busy || null,
    onchange: (/** @type {Event} */ e) => {
      const now = /** @type {HTMLInputElement} */ (e.currentTarget).checked;
      ctx.forms[key] = now;
      ctx.enter('check_in', {player: name, present: now},
        {where: 'check-in', done: now ? `${name} is checked in.` : `${name} is marked absent.`});
    }});
  return h('li', {class: present ? 'present' : 'absent', 'data-key': `present-${name}`, 'data-player': name},
    h('label', {for: id}, tick, ' ', h('strong', {}, name)), ' ', h('small', {}, how(ctx, name)));
}

/**
 * The desk's panel for the hall: the slips to print (one a player and judge: name,
 * table once seated, the QR code of their link and its code), and, when the event
 * checks its players in, who is present and who is not.
 * @param {EventContext} ctx
 * @param {string[]} players the roster
 */
export function hallPanel(ctx, players) {
  const desk = checkIn(ctx);
  const slips = h('p', {class: 'note'},
    h('a', {href: `/e/${encodeURIComponent(ctx.id)}/slips`, target: '_blank', rel: 'noopener', 'data-action': 'slips'}, 'Slips to print'),
    ': one for each player', ctx.event.kind === 'pitch-tournament' ? ' and judge' : '',
    ', with the QR code of their link and a code to type instead. Lost one? Give that person a new link: the old slip stops working.');
  if (!desk.on) return panel('hall', 'Slips', slips);
  const present = desk.present.length;
  return panel('hall', `Check-in (${present} of ${players.length})`, slips,
    h('p', {class: 'glance check-count', 'data-key': 'check-count'},
      h('strong', {}, `${present} present`), ' · ', `${plural(desk.absent.length, 'player')} not here`),
    h('p', {class: 'note'}, 'A player is present once they open their link (scan their slip, or type its code); tick them here if they cannot. Only players present are seated.'),
    players.length ? h('ul', {class: 'check-list'}, players.map((p) => line(ctx, p))) : h('p', {class: 'note'}, 'Nobody on the roster yet.'),
    note(ctx, 'check-in'));
}

/**
 * Check a player in when they open their own link, the first time (an entry made
 * by them): from then on the manager alone marks them present or absent.
 * @param {EventContext} ctx
 * @returns {Promise<boolean>} whether they were checked in now
 */
export async function checkInOnOpen(ctx) {
  const desk = checkIn(ctx);
  const me = ctx.me.name;
  if (ctx.me.role !== 'player' || !me || !desk || !desk.on || desk.marks[me]) return false;
  return ctx.enter('check_in', {player: me}, {where: 'check-in', done: 'You are checked in. Welcome!'});
}
