// @ts-check
// The contract between the event pages' shell (js/event.js) and an event kind's own
// module (js/event/<kind>.js, named after the kind: pits-continuous, ...). Types only.
//
// The shell reads the address and the link, asks the server for the event
// (GET /api/events/<id>), and calls the kind's module to draw the page asked for:
//   /e/<id>          with the manager's link: `desk`; a player's: `player`;
//                    a judge's: `judge`; no link (or #public): `public`
//   /e/<id>/screen   `screen` (the big screen in the hall; no controls)
//   /e/<id>/print    `print` (the score sheets, for paper and PDF)
//   /e/<id>/slips, /e/<id>/code: every kind's (js/event/hall.js)
// A hook the module leaves out falls back to `public`. Hooks return nodes, and the
// shell patches the page with them (dom.js `morph`), so a redraw keeps the focus
// and whatever is typed. A hook never changes the event: it calls `ctx.enter`,
// and the server, the only authority, says yes (the page redraws from its answer)
// or why not (in words, shown where the entry was made). A game played online at a
// pitkit table is opened by an `open_table` entry (the shell keeps the table's host
// token for the manager); a player goes to their seat there with `ctx.seat`.
// An entry made through a dropped network waits on the phone (js/event/outbox.js):
// `ctx.waiting` lists those of the page's link, oldest first, so that a form numbers
// the next hand after them; `ctx.enter` is then true (kept), and the shell shows them
// as "waiting to send" above the page, in the kind's words (`describe`).

/**
 * Who holds the page's link: their role and, for a player or a judge, their name.
 * @typedef {import('../wire.js').LinkHolder} Me
 */

/**
 * One entry of the event's log, as the server keeps it.
 * @typedef {import('../wire.js').TournamentEntry} LogEntry
 */

/**
 * The event as the link's role sees it (GET /api/events/<id>): `view` is the kind's own.
 * @typedef {import('../wire.js').TournamentInfo} EventData
 */

/** A secret link made by an entry (a player added): shown to the manager to hand out. @typedef {{role: string, name: string | null, token: string, url: string}} Link */

/**
 * What a hook gets. `forms` is the page's own state (what is typed and picked, which
 * panel is open), kept across redraws; an element with `data-bind="<key>"` shows
 * `forms[<key>]` (see ui.js `bind`). `notes` are the last words on each form
 * (`where`): a refusal from the server, or what was done. `ask` reads the API through
 * the page's link (or the `token` given). `waiting`: the entries made here that wait
 * to be sent. `fresh`: how fresh the page is, in words (for the big screen's head; an
 * element with `data-fresh` shows it, kept up to date by the shell).
 * @typedef {{
 *   id: string,
 *   page: 'main' | 'screen' | 'print' | 'slips' | 'code',
 *   event: EventData,
 *   me: Me,
 *   forms: Record<string, any>,
 *   notes: Record<string, {kind: 'error' | 'info' | 'wait', text: string}>,
 *   busy: boolean,
 *   links: Record<string, string>,
 *   waiting: import('./keep.js').Waiting[],
 *   enter: (type: string, data: Record<string, unknown>, options?: {corrects?: number, where?: string, done?: string}) => Promise<boolean>,
 *   seat: (tableId: string, where: string) => Promise<void>,
 *   ask: (path: string, token?: string | null) => Promise<any>,
 *   redraw: () => void,
 *   fresh: () => {stale: boolean, text: string},
 * }} EventContext
 */

// A kind's module is a default export declared
//
//   /** @type {import('./contract.js').EventModule} */
//   export default {...};
/**
 * The hooks of a kind's module (each page's drawing; only `public` is required), and
 * `describe`: its entries in words, by number (the log's, and the entries waiting).
 * @typedef {{
 *   public: (ctx: EventContext) => Node,
 *   desk?: (ctx: EventContext) => Node,
 *   player?: (ctx: EventContext) => Node,
 *   judge?: (ctx: EventContext) => Node,
 *   screen?: (ctx: EventContext) => Node,
 *   print?: (ctx: EventContext) => Node,
 *   describe?: (log: LogEntry[]) => Map<number, string>,
 * }} EventModule
 */

export {};
