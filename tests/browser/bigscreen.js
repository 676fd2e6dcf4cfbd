// What is wrong with the big screen's page now, by its elements' boxes (CSS pixels):
// tests/browser/bigscreen.py evaluates it on each page, at each size.
() => {
  const problems = [];
  const W = innerWidth, H = innerHeight;
  const root = document.documentElement;
  if (root.scrollWidth > W || root.scrollHeight > H) problems.push(`the page scrolls: ${root.scrollWidth}x${root.scrollHeight}`);
  const box = (el) => el.getBoundingClientRect();
  const name = (el) => `${el.tagName.toLowerCase()}.${el.className} "${(el.textContent || '').trim().slice(0, 30)}"`;
  const inside = (el, outer, what) => {
    const a = box(el), b = outer.getBoundingClientRect ? outer.getBoundingClientRect() : outer;
    if (a.left < b.left - .5 || a.right > b.right + .5 || a.top < b.top - .5 || a.bottom > b.bottom + .5)
      problems.push(`${name(el)} is not inside ${what}`);
  };
  const apart = (els, what) => {
    const boxes = els.map(box);
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i], b = boxes[j];
      if (!(a.right <= b.left + .5 || b.right <= a.left + .5 || a.bottom <= b.top + .5 || b.bottom <= a.top + .5))
        problems.push(`${what}: ${name(els[i])} overlaps ${name(els[j])}`);
    }
  };
  const screen = document.querySelector('.ev-screen');
  const whole = {left: 0, top: 0, right: W, bottom: H};
  const body = screen.querySelector('.screen-body');
  apart([...screen.children], 'the head, the body and the foot');
  apart([...screen.querySelector('.screen-head').children], 'the head');
  apart([...screen.querySelector('.screen-foot').children], 'the foot');
  apart([...body.querySelectorAll('.screen-table')], 'the tables');
  apart([...body.querySelectorAll('.screen-card')], 'the cards');
  for (const row of body.querySelectorAll('tr, .screen-card')) inside(row, body, "the screen's body");
  for (const el of screen.querySelectorAll('*')) {
    const style = getComputedStyle(el);
    if (style.display === 'inline' || style.display === 'none' || el.closest('.sr-only')) continue;
    inside(el, whole, 'the screen');
    // Text wider than its box is cut with an ellipsis where it ends, never drawn over the next.
    const spills = el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1;
    const cut = style.overflow === 'hidden' && (style.textOverflow === 'ellipsis' || el.scrollWidth <= el.clientWidth + 1);
    if (spills && !cut) problems.push(`${name(el)} spills out of its box (${el.scrollWidth}x${el.scrollHeight} in ${el.clientWidth}x${el.clientHeight})`);
  }
  return problems;
}
