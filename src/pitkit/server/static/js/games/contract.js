// @ts-check
// The contract between the table page (the shell, js/table/) and a game's own module
// (js/games/<registry name>.js). Types only: this file declares, it does nothing.
//
// The server tells the page where a game's module is (`module` in GET /api/games,
// found by the game's registry name); a game without one is drawn by the shell from
// its view and the view's JSON Schema (js/table/generic.js). A module only refines
// that drawing: EVERY HOOK IS OPTIONAL, and for each one it leaves out the shell
// uses the generic behaviour named below. A module is a default export declared
//
//   /** @type {import('./contract.js').GameModule<MyView>} */
//   export default {...};
//
// The words of events are the server's (each event's `text`): a module never
// describes events. The server is the only authority: hooks draw what the view
// says and name actions the view lists as legal, never re-implementing the rules.

// -- what the server sends: declared in Python, written into js/wire.d.ts -------------
// (`python -m pitkit.server.wire`): the table, the events, each game's view.

/** @typedef {import('../wire.js').Card} CardCode */
/** @typedef {import('../wire.js').GameEvent} GameEvent */
/** @typedef {import('../wire.js').GameInfo} GameInfo */
/** @typedef {import('../wire.js').SeatView} SeatView */
/** @typedef {import('../wire.js').TableInfo} TableInfo */

/**
 * A seat's view as the shell holds it: the backbone of every game's view
 * (`TableView`: whose view it is, the phase, who may act, the dealer, the hand's
 * outcome, the seat's own cards, its legal actions, the hand's history and the
 * match's record) and the seats, of type `P`. A game's own view, as wire.d.ts declares
 * it from Python (`PitsView`, ...), is one: a module names it as its `V`.
 * @template {SeatView} [P=SeatView]
 * @typedef {import('../wire.js').TableView & {players: P[]}} View
 */

/**
 * A JSON Schema, as far as the page reads one (`pitkit.core.views.json_schema`):
 * a card is a string with `format: "card"`, a place of cards an array of them.
 * @typedef {{
 *   type?: string, format?: string, title?: string, enum?: unknown[],
 *   items?: JsonSchema | false, anyOf?: JsonSchema[],
 *   properties?: Record<string, JsonSchema>, required?: string[],
 * }} JsonSchema
 */

// -- what the shell gives a module ---------------------------------------------------

/**
 * The rules judge's answer (POST /api/games/{game}/judge): ok, or the reason not.
 * @typedef {{ok: boolean, text: string}} Verdict
 */

/**
 * The shell, as a module sees it: the state (read-only) and what it may do.
 * @typedef {object} Ctx
 * @property {number | null} me           this page's seat (null: watching)
 * @property {View<any> | null} view      the seat's view as of the latest version
 * @property {TableInfo | null} table
 * @property {GameInfo | null} info       the game, as GET /api/games lists it
 * @property {Record<string, any>} rules  the rule options that differ from the defaults
 * @property {number} players
 * @property {string[]} legal             the seat's legal actions now
 * @property {GameEvent[]} events         this hand's events so far
 * @property {boolean} over               whether the match is over
 * @property {CardCode[]} selected        the hand cards picked, in the order picked
 * @property {number | null} sortingLeft  whole seconds left in Pit's sorting period,
 *   while it counts down (0: over, the bell not yet rung; null: none runs)
 * @property {(seat: number) => string} name           a seat's name, never "you"
 * @property {(seat: number) => string} who            "You" for this seat, else its name
 * @property {(seat: number, verb: string) => string} does  "You play" / "Ada plays"
 * @property {(seat: number, verb: string) => string} verb  "play" for this seat, else "plays"
 * @property {(action: string) => void} act            send a legal action's text
 * @property {() => boolean} canAct                    whether an action may be sent now
 * @property {(args: string[]) => Promise<Verdict>} judge   the game's rules judge, cached
 * @property {(cards: CardCode[]) => void} selectCards replace the selection
 * @property {(seat: number, r: number) => {left: string, top: string}} toward
 *   CSS position on the felt a fraction `r` of the way from its centre toward a seat
 */

/**
 * A legal action as a module reads it (`parseAction`). Where the shell offers it:
 * `place` 'hand' (the default when it names `cards`): by picking those cards of the
 * hand, then its gold button; 'menu' (the default without cards): a button of its
 * own, its cards also playable by picking them; 'centre': the module's centre draws
 * its control. `label` names it on its button; `key` is its keyboard key;
 * `primary` makes it gold; `title` explains it on hover.
 * @typedef {{
 *   cards?: CardCode[], place?: 'hand' | 'menu' | 'centre', label?: string | Node,
 *   key?: string, primary?: boolean, title?: string | null, [field: string]: unknown,
 * }} ActionInfo
 */

/** An action as the shell holds it: its text, and what `parseAction` read. @typedef {ActionInfo & {text: string}} ParsedAction */

/** What a hook may put into the page: a node, a text, a promise of either, or nothing. @typedef {Node | string | null | undefined | Promise<Node | string | null | undefined>} Content */

// -- the contract -------------------------------------------------------------------

/**
 * A game's module. Every member is optional; the shell's default for each is the
 * generic drawing (js/table/generic.js), as said here.
 *
 * @template {View<any>} [V=View]
 * @typedef {object} GameModule
 *
 * @property {boolean} [ordered]  Cards of an action are picked in order (Pitty Pat: the
 *   match, then the discard). Default false: a pick is a set of cards.
 * @property {boolean} [multi]  A card that extends no legal play may still be picked (to
 *   hear the judge on it). Default false: such a click says why not, or nothing.
 * @property {boolean | ((view: V) => boolean)} [autoPlay]  A pick that completes exactly
 *   one action plays it at once. Default true.
 * @property {string[]} [help]  Paragraphs of the help window. Default: the game's summary
 *   and how the generic table is played.
 * @property {[string, string][]} [keys]  Keys the game adds to the help: [key, what].
 *   Default: 1-9, the keys of the generic move buttons (a module with its own
 *   `parseAction` says its own keys).
 *
 * @property {(cards: CardCode[], view: V, ctx: Ctx) => CardCode[]} [sortHand]
 *   The hand in the order shown. Default: as the server sends it.
 * @property {(text: string, view: V, ctx: Ctx) => ActionInfo} [parseAction]
 *   What a legal action is and where it is offered. Default: a menu button labelled
 *   with the action's text (keys 1-9); an action naming exactly one card of the hand is
 *   also played by clicking that card.
 * @property {(view: V, ctx: Ctx, actions: ParsedAction[]) => string | null} [hint]
 *   The line above the hand on this seat's turn. Default: "Your turn: …" naming the
 *   generic controls.
 * @property {(view: V, ctx: Ctx) => string | null} [waitingText]
 *   The line while others act. Default (or null): "Waiting for Ada…".
 * @property {(view: V, ctx: Ctx) => Node} [centre]
 *   The middle of the felt. Default: every public card place of the view (its
 *   top-level card arrays and single cards, but `hand`) as a labelled row of cards,
 *   its integer facts as labelled numbers, and whose turn it is.
 * @property {(player: V['players'][number], view: V, ctx: Ctx) => string[]} [seatNotes]
 *   Chips on a seat's plate (the shell adds dealer, bot, away). Default: the seat's
 *   public facts from the schema, "Title: value" (true booleans as their title).
 * @property {(player: V['players'][number], view: V, ctx: Ctx) => Node | null} [seatExtra]
 *   More on a seat's plate. Default: the seat's public cards (card arrays) as small cards.
 * @property {(cards: CardCode[], exact: ParsedAction[], view: V, ctx: Ctx) => Content} [selectionInfo]
 *   What the picked cards make (may ask `ctx.judge`). Default: nothing.
 * @property {(cards: CardCode[], view: V, ctx: Ctx) => string | null} [tryPlay]
 *   An action to send for a pick that is no legal play, so the server says why (a
 *   dashed "Play" button). Default null: none.
 * @property {(card: CardCode, selection: CardCode[], view: V, ctx: Ctx) => string | null} [tryCard]
 *   An action to send when a card that is no legal play is clicked, so the server
 *   says why. Default null: none.
 * @property {(events: GameEvent[], ctx: Ctx) => Node} [handSummary]
 *   The top of the end-of-hand window, from the hand's events. Default: the hand's
 *   result as the match records it.
 * @property {(ctx: Ctx) => string} [scoreLabel]  What the scores count. Default "points".
 * @property {(ctx: Ctx) => string} [scoreShort]  Its short form on the seats. Default "pts".
 * @property {(ctx: Ctx) => number | null} [handsInMatch]  Hands in a match, for "hand 2 of
 *   5". Default null: not shown.
 * @property {(view: V, ctx: Ctx) => Node | null} [scoreSheet]  The game's own score sheet.
 *   Default (or null): the shell's sheet of the scores after each hand, and the results.
 */

/**
 * A module with every hook filled in: the game's own, else the generic one. This is
 * what the shell calls.
 * @typedef {Required<GameModule<View<any>>>} Game
 */

export {};
