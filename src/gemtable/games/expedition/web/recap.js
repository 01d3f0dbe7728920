// The recap of a cave that just ended, for the pause between caves (and the last cave's, before the results),
// on the phones and the TV: what each explorer took home (gems and relics) or lost in the collapse, and the
// deck the next cave opens with; on a player's own phone, what one more card would have done to them (the
// view's ``hindsight``: docs/expedition.md). page.js loads it the first time a cave ends (results.js with it: its
// styles, and the words of what might have been and of the awards, end.LANG.json beside it).

import { h } from '/static/js/dom.js';
import { t, loadTexts } from '/static/js/i18n.js';
import { seatMark } from '/static/js/seat-style.js';
import { cardName, gems, gemsText, nameOf, relicIcons } from './page.js';

await loadTexts(new URL('end', import.meta.url).pathname);

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
      : null,
    st.hindsight ? h('p', { class: 'hindsight', text: hindsight(st.hindsight, st.rules) }) : null);
}

/** What one more card would have done to this phone's player (``kind``: hindsight.py's). */
export function hindsight(hs, rules) {
  const vars = { card: hs.card ? cardName(hs.card, rules) : '', gems: gemsText(hs.gems ?? 0, rules) };
  if (hs.kind === 'treasure') return t(hs.gems ? 'hs.treasure' : 'hs.treasure_0', vars);
  if (hs.kind === 'collapse') return [t('hs.collapse', vars), hs.relics ? t('hs.relics', { n: hs.relics }) : ''].join(' ').trim();
  return t(`hs.${hs.kind}`, vars);
}
