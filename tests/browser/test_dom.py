"""The pages' redraw (`static/js/dom.js`'s `morph`), in the browser: it patches the live
nodes into the fresh ones' likeness, keeping each node (a click, the focus) and carrying
the handlers, which the markup does not hold, over every node: those of a subtree whose
markup is unchanged (compared natively) as well."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.browser.conftest import ServerThread

REDRAW = """async () => {
  const {h, morph} = await import('/static/js/dom.js');
  const said = [];
  const card = (n, key) => h('li', {class: 'card', dataset: {key}},
    h('button', {type: 'button', onclick: () => said.push(`${key} ${n}`)}, `Play ${key}`));
  const draw = (n, extra) => h('ul', {}, card(n, 'a'), card(n, 'b'), extra);
  const live = draw(1, h('li', {class: 'note', onclick: () => said.push('note')}, 'Your turn'));
  document.body.append(live);
  const buttons = [...live.querySelectorAll('button')];
  // The same markup with new handlers, then a changed attribute and a removed handler.
  morph(live, draw(2, h('li', {class: 'note'}, 'Your turn')));
  const kept = [...live.querySelectorAll('button')].every((b, i) => b === buttons[i]);
  live.querySelectorAll('button').forEach((b) => b.click());
  live.querySelector('.note').click();
  const fresh = draw(3, h('li', {class: 'note done', onclick: () => said.push('done')}, 'Over'));
  morph(live, fresh);
  live.querySelectorAll('button').forEach((b) => b.click());
  live.querySelector('.note').click();
  const note = live.querySelector('.note');
  live.remove();
  return {kept, said, note: [note.className, note.textContent]};
}"""


def test_a_redraw_keeps_the_nodes_and_carries_every_handler(
    page: Page, server: ServerThread
) -> None:
    page.goto(f"{server.base}/rules/pits")
    result = page.evaluate(REDRAW)
    assert result["kept"]
    # The handlers are the fresh ones everywhere, the unchanged subtrees' included;
    # the note's, removed by the first redraw, is gone until the second gives it one.
    assert result["said"] == ["a 2", "b 2", "a 3", "b 3", "done"]
    assert result["note"] == ["note done", "Over"]
