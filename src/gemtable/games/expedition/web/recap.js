// The recap of a cave that just ended, for the pause between caves (and the last cave's, before the results),
// on the phones and the TV: what each explorer took home (gems and relics) or lost in the collapse, and the
// deck the next cave opens with. page.js loads it the first time a cave ends (results.js with it: its styles).

import { h } from '/static/js/dom.js';
import { t } from '/static/js/i18n.js';
import { seatMark } from '/static/js/seat-style.js';
import { cardName, gems, nameOf, relicIcons } from './page.js';

// end.css (beside this module) is linked on first use, as page.js links page.css.
const CSS = new URL('end.css', import.meta.url).pathname;
await (document.querySelector(`link[href="${CSS}"]`) ? Promise.resolve() : new Promise((done) => {
  const link = h('link', { rel: 'stylesheet', href: CSS, on: { load: done, error: done } });
  setTimeout(done, 3000);
  document.head.append(link);
}));

/** The recap of the cave in ``v.state`` (it has ended). */
export function recap(v) {
  const st = v.state;
  const r = st.reveal;
  const lost = {};
  if (st.collapsed_by && r) r.deeper.forEach((seat, i) => { lost[seat] = r.lost[i] ?? 0; });
  const rows = st.players.filter((p) => p.status !== 'out').map((p) => {
    const buried = p.seat in lost;
    return h('li', { class: ['recap-row', buried && 'buried'] },
      h('span', { class: 'recap-who' }, seatMark(p.seat), h('span', { text: nameOf(p.seat, v.names) })),
      buried ? h('span', { class: 'recap-what' }, t('exp.recap_lost'), ' ', gems(lost[p.seat], st.rules))
        : h('span', { class: 'recap-what' }, t('exp.recap_banked'), ' ', gems(p.banked ?? 0, st.rules),
          (p.banked_relics || []).length ? relicIcons(p.banked_relics) : null));
  });
  const removed = st.collapsed_by && st.removed.length
    ? t('exp.recap_removed', { card: cardName(st.removed[st.removed.length - 1], st.rules) }) : '';
  return h('section', { class: 'recap', 'aria-label': t('exp.recap_title', { cave: st.cave }) },
    h('h2', { class: 'h3', text: t('exp.recap_title', { cave: st.cave }) }),
    h('ul', { class: 'recap-list' }, rows),
    st.next_deck ? h('p', { class: 'recap-next', text: [t('exp.recap_next', { n: st.next_deck }), removed].join(' ') })
      : null);
}
