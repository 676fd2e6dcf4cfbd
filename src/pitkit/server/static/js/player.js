// @ts-check
// A player's page (/p/ID): the profile's rating in each game with its range, and its
// rated matches with their replays (docs/ratings.md). On your own page (this browser
// signed in to the profile) also the profiles you played with lately, each with
// Invite again: a new table of that game, laid out as your last one together, and
// the link to send them.
import {ApiError, api, copyText, errorText, h, ordinal, plural, toast, when} from './dom.js';
import {asMe, signedIn, sitAs} from './profile.js';
import * as store from './store.js';
import {points, swatch} from './ratings.js';

/** A rating as shown. @typedef {{game: string, title: string, rating: number, plus_minus: number, low: number, matches: number, listed: boolean}} RatingOut */
/** Someone else at a match. @typedef {{kind: string, name: string | null, profile: string | null, colour: string | null}} SeatedOut */
/**
 * A rated match (its table, replay and others hidden at an unlisted table, but to its player).
 * @typedef {{game: string, title: string, at: number, place: number, players: number, rating: number, change: number,
 *   table: string | null, number: number | null, replay: string | null, others: SeatedOut[]}} MatchOut
 */
/** A table to play again: the body of POST /api/tables. @typedef {{game: string, players: number, seats: (string | null)[], rules: Record<string, unknown>, settings: Record<string, unknown>}} AgainOut */
/** A profile met lately. @typedef {{id: string, name: string, colour: string, game: string, title: string, at: number, again: AgainOut}} OpponentOut */
/**
 * The page's data (GET /api/players/ID).
 * @typedef {{profile: {id: string, name: string, colour: string}, mine: boolean, ratings: RatingOut[],
 *   matches: MatchOut[], page: number, more: boolean, opponents: OpponentOut[]}} PlayerOut
 */

const profileId = decodeURIComponent(location.pathname.split('/')[2] || '');
let page = 0;

/**
 * @param {string} id
 * @returns {HTMLElement}
 */
function byId(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the page has no #${id}`);
  return el;
}

/** @param {RatingOut} r */
function ratingCard(r) {
  return h('li', {class: 'rating-card', dataset: {game: r.game}},
    h('div', {class: 'game'}, h('a', {href: `/leaders/${encodeURIComponent(r.game)}`}, r.title)),
    h('div', {class: 'value'}, points(r.rating), ' ', h('span', {class: 'range'}, `± ${points(r.plus_minus)}`)),
    h('div', {class: 'note'}, `${plural(r.matches, 'rated match', 'rated matches')}`,
      r.listed ? '' : ' · not yet on the leaderboard'));
}

/** @param {SeatedOut} s */
function seatedText(s) {
  if (s.kind === 'profile' && s.profile) return h('a', {href: `/p/${encodeURIComponent(s.profile)}`}, s.name || 'a player');
  if (s.kind === 'bot') return `a bot${s.name ? ` (${s.name})` : ''}`;
  return `${s.name || 'a guest'} (guest)`;
}

/**
 * @param {Node[]} parts
 * @param {string} between
 * @returns {(Node | string)[]}
 */
function joined(parts, between) {
  return parts.flatMap((part, i) => (i ? [between, part] : [part]));
}

/** @param {MatchOut} m */
function matchItem(m) {
  const sign = m.change > 0 ? '+' : m.change < 0 ? '−' : '±';
  const change = h('span', {class: `change ${m.change > 0 ? 'up' : m.change < 0 ? 'down' : ''}`},
    `${sign}${points(Math.abs(m.change))}`);
  const others = m.others.map((s) => h('span', {}, seatedText(s)));
  return h('li', {class: 'match-item'},
    h('div', {class: 'match-what'},
      h('strong', {}, m.title), ` · ${ordinal(m.place)} of ${m.players} · `, change, ` to ${points(m.rating)}`,
      h('div', {class: 'note'}, when(m.at),
        others.length ? [' · with ', ...joined(others, ', ')] : m.table ? '' : ' · at a private table')),
    m.replay ? h('a', {class: 'button', href: m.replay, 'aria-label': `Replay the ${m.title} match of ${when(m.at)}`}, 'Replay') : null);
}

/**
 * Invite again: a new table laid out as the last one together, held by this profile
 * in the first seat; the link for the opponent is shown to copy, then the table opens.
 * @param {OpponentOut} met
 * @param {HTMLButtonElement} button
 */
async function inviteAgain(met, button) {
  button.disabled = true;
  try {
    /** @type {{table: {id: string}, host_token: string, seats: {seat: number, kind: string, token: string, invite: string}[]}} */
    const created = await api('/api/tables', {method: 'POST', body: met.again});
    const id = created.table.id;
    const mine = created.seats.find((s) => s.seat === 0);
    if (!mine) throw new Error('the server kept no seat for you');
    const seat = await sitAs(id, mine.token);
    const token = seat.token || mine.token;
    /** @type {Record<string, string>} */
    const invites = {};
    // On this page's origin, whatever the server named (a relative link if it did not know its name).
    for (const s of created.seats) if (s.seat !== 0 && s.kind === 'open') invites[s.seat] = new URL(s.invite.replace(/^https?:\/\/[^/]+/, ''), location.origin).href;
    store.updateTable(id, {host: created.host_token, token, invites, game: met.game});
    showInvite(met, id, token, Object.values(invites));
  } catch (error) {
    toast(`No table was opened: ${errorText(error)}`);
  } finally {
    button.disabled = false;
  }
}

/**
 * The new table's link for the opponent, to copy, and the way to the table.
 * @param {OpponentOut} met
 * @param {string} id
 * @param {string} token
 * @param {string[]} links the open seats' invitations, the opponent's first
 */
function showInvite(met, id, token, links) {
  const box = byId('invite-ready');
  const link = links[0] || '';
  const field = h('input', {id: 'invite-link', readonly: true, value: link, 'aria-label': `Invitation link for ${met.name}`});
  const copy = h('button', {type: 'button', onclick: async () => {
    toast(await copyText(link) ? `Copied: send it to ${met.name}.` : 'Select the link and copy it.', 'info');
  }}, 'Copy link');
  const more = links.length > 1 ? ` The table's Invite window has the links of its ${plural(links.length - 1, 'other open seat')}.` : '';
  box.replaceChildren(
    h('p', {}, h('strong', {}, `A new table of ${met.title} is ready.`), ` Send ${met.name} this link to their seat.${more}`),
    h('div', {class: 'link-row'}, field, copy),
    h('a', {class: 'button primary', href: `/t/${encodeURIComponent(id)}#token=${encodeURIComponent(token)}`}, 'Go to the table'));
  box.hidden = false;
  field.focus();
  field.select();
}

/** @param {OpponentOut} met */
function opponentItem(met) {
  const button = h('button', {type: 'button', class: 'primary', 'aria-label': `Invite again: ${met.name}, ${met.title}`}, 'Invite again');
  button.addEventListener('click', () => inviteAgain(met, button));
  return h('li', {class: 'person', dataset: {profile: met.id}},
    h('span', {class: 'person-who'}, swatch(met.colour),
      h('span', {}, h('a', {href: `/p/${encodeURIComponent(met.id)}`}, met.name),
        h('span', {class: 'note'}, ` · ${met.title}, ${when(met.at)}`))),
    button);
}

/** @param {PlayerOut} p */
function draw(p) {
  document.title = `pitkit: ${p.profile.name}`;
  byId('name').textContent = p.mine ? `${p.profile.name} (you)` : p.profile.name;
  byId('swatch').style.background = p.profile.colour;
  const played = p.ratings.reduce((sum, r) => sum + r.matches, 0);
  byId('subtitle').textContent = played ? `${plural(played, 'rated match', 'rated matches')} in ${plural(p.ratings.length, 'game')}` : 'No rated match yet';
  byId('rating-list').replaceChildren(...(p.ratings.length ? p.ratings.map(ratingCard)
    : [h('li', {class: 'note'}, 'No rating yet: it comes with a first finished match against another person.')]));
  byId('opponents').hidden = !p.mine;
  byId('opponent-list').replaceChildren(...(p.opponents.length ? p.opponents.map(opponentItem)
    : [h('li', {class: 'note'}, 'Nobody yet: the profiles you play rated matches with show here.')]));
  byId('match-list').replaceChildren(...(p.matches.length ? p.matches.map(matchItem)
    : [h('li', {class: 'note'}, p.page ? 'No older matches.' : 'No finished rated match yet.')]));
  byId('newer').hidden = p.page === 0;
  byId('older').hidden = !p.more;
}

/**
 * The page as its own profile sees it (its private matches and opponents too); as
 * anyone sees it if this device is no longer signed in.
 * @param {string} path
 * @returns {Promise<PlayerOut>}
 */
async function asOwner(path) {
  try {
    return await asMe(path);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return api(path);
    throw error;
  }
}

async function load() {
  const signed = signedIn();
  const path = `/api/players/${encodeURIComponent(profileId)}?page=${page}`;
  try {
    draw(await (signed && signed.profile.id === profileId ? asOwner(path) : api(path)));
  } catch (error) {
    const missing = byId('missing');
    missing.textContent = error instanceof ApiError && error.status === 404 ? 'There is no such player.' : `This page could not be read: ${errorText(error)}`;
    missing.hidden = false;
    for (const id of ['ratings', 'matches']) byId(id).hidden = true;
  }
}

byId('newer').addEventListener('click', () => { page = Math.max(0, page - 1); load(); });
byId('older').addEventListener('click', () => { page += 1; load(); });
load();
