// @ts-check
// The table's chat (docs/protocol.md, "Chat"): what the players said, a few quick
// reactions, and a line to write on. Players always chat; spectators only where the
// host allows (the table's spectator_chat), and otherwise neither see nor send it.
import {h, toast} from '../dom.js';
import {S, link} from './state.js';
import {COMPACT} from './seats.js';

/** The quick reactions: plain words, sent as any message is. */
export const REACTIONS = ['👍', 'Good game', 'Well played', 'Oops', 'Hurry up'];
const KEPT = 100;
const MOST = 200;

/** A message said at the table (a player's: its seat; a spectator's: none). @typedef {import('../wire.js').SaidMessage} Said */

/** The chat as the welcome brings it (the latest messages), or none. @param {Said[] | undefined} chat */
export function setChat(chat) {
  S.chat = chat ? chat.slice(-KEPT) : [];
}

/** One message said at the table. @param {Said} said */
export function addSaid(said) {
  S.chat = [...S.chat.slice(-(KEPT - 1)), said];
  const live = document.getElementById('chat-live');
  if (live && said.seat !== S.seat) live.textContent = `${said.name} says: ${said.text}`;
}

/** Whether this page may chat: a player, or a spectator where the host allows. */
function mayChat() {
  if (S.replay) return false; // a replay shows the match, not the table's talk
  return !!S.table && (S.seat != null || !!S.table.settings.spectator_chat);
}

/** @param {string} text */
function send(text) {
  const clean = text.trim();
  if (!clean) return false;
  if (!link.socket || !link.socket.isOpen) {
    toast('Not connected: the message was not sent.');
    return false;
  }
  link.socket.send({type: 'chat', text: clean.slice(0, MOST), id: 'chat'});
  return true;
}

let wired = false;

/** Wire the panel's form and reactions once; phones start with it folded. */
function wire() {
  const panel = document.getElementById('chat');
  const form = document.getElementById('chat-form');
  const field = /** @type {HTMLInputElement | null} */ (document.getElementById('chat-text'));
  const reactions = document.getElementById('chat-reactions');
  if (!panel || !form || !field || !reactions) return;
  wired = true;
  const box = panel.querySelector('details');
  if (box && !COMPACT.matches) box.open = true;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (send(field.value)) field.value = '';
  });
  reactions.replaceChildren(...REACTIONS.map((text) => h('button', {
    type: 'button', class: 'reaction', onclick: () => send(text),
    'aria-label': text === '👍' ? 'Say: thumbs up' : `Say: ${text}`,
  }, text)));
}

/** @param {Said} said */
function lineOf(said) {
  const mine = said.seat != null && said.seat === S.seat;
  const who = mine ? `${said.name} (you)` : said.spectator ? `${said.name} (watching)` : said.name;
  return h('li', {class: mine ? 'mine' : null, dataset: {seat: said.seat ?? ''}},
    h('span', {class: 'who'}, `${who}: `), said.text);
}

let shown = -1;

/** The chat panel, when this page may chat. */
export function drawChat() {
  const panel = document.getElementById('chat');
  const log = document.getElementById('chat-log');
  if (!panel || !log) return;
  if (!wired) wire();
  panel.hidden = !mayChat();
  if (panel.hidden) return;
  const last = S.chat.length ? S.chat[S.chat.length - 1].at : 0;
  const key = S.chat.length * 1e13 + last;
  if (key === shown) return;
  shown = key;
  log.replaceChildren(...(S.chat.length ? S.chat.map(lineOf)
    : [h('li', {class: 'note'}, 'Nothing said yet. Say hello, or pick a quick reaction.')]));
  log.scrollTop = log.scrollHeight;
  const count = document.getElementById('chat-count');
  if (count) count.textContent = S.chat.length ? `(${S.chat.length})` : '';
}

