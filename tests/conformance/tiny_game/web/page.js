// Pick's board: the rounds so far, each pick shown once both are in, and three big buttons.
// A game module of the shared table page (docs/pages.md): renderGame, renderActions, renderResults, changes.
// Shared modules by their absolute paths; everything else is this folder's.

import { h, put } from '/static/js/dom.js';
import { t, num } from '/static/js/i18n.js';

const nameOf = (seat, names) => names[seat] ?? t('pick.seat', { n: seat + 1 });

export function renderGame(el, v) {
  const st = v.state;
  if (!st) return;
  const rows = st.history.map((picks, round) => h('tr', null,
    h('th', { scope: 'row', text: num(round + 1) }),
    picks.map((pick) => h('td', { class: picks.filter((p) => p === pick).length === 1 ? 'pick-scored' : 'pick-void',
      text: pick }))));
  put(el, h('section', { class: 'pick-board', 'aria-labelledby': 'pick-title' },
    h('h2', { id: 'pick-title', text: t('pick.round', { n: num(Math.min(st.history.length + 1, st.rounds)), total: num(st.rounds) }) }),
    h('p', { class: 'pick-lead', text: t('pick.lead') }),
    st.history.length ? h('table', { class: 'pick-history' },
      h('thead', null, h('tr', null, h('th', { scope: 'col', text: t('pick.round_col') }),
        [0, 1].map((seat) => h('th', { scope: 'col', text: nameOf(seat, v.names) })))),
      h('tbody', null, rows)) : h('p', { class: 'note', text: t('pick.first') })));
}

export function renderActions(el, v, ui) {
  const local = ui.local;
  const me = v.me;
  const can = v.table.phase === 'playing' && me && me.moves && me.moves.length > 0;
  el.hidden = !can;
  if (!can) return;
  const choice = local.pickRound === v.table.decision ? local.pick : me.choice;
  put(el, h('p', { class: 'pick-note', 'aria-live': 'polite', text: choice ? t('pick.chosen', { move: choice }) : t('pick.choose') }),
    h('div', { class: 'pick-moves' }, me.moves.map((move) => h('button', {
      type: 'button', class: ['pick-move', choice === move ? 'chosen' : ''], id: `pick-${move}`,
      'aria-pressed': choice === move ? 'true' : 'false',
      on: { click: () => {
        if (ui.send({ type: 'choose', move, decision: v.table.decision })) {
          local.pick = move;
          local.pickRound = v.table.decision;
        }
        ui.rerender();
      } },
    }, move))));
}

export function renderResults(el, data) {
  const scores = data.scores || [];
  const winners = data.winners || [];
  const winText = winners.length === 1 ? t('results.winner', { name: nameOf(winners[0], data.names) })
    : t('results.winners', { names: winners.map((seat) => nameOf(seat, data.names)).join(' · ') });
  put(el, h('h2', { class: 'results-title', text: t('results.title') }),
    winners.length ? h('p', { class: 'pick-winner', text: winText }) : null,
    h('ul', { class: 'pick-scores' }, scores.map((score, seat) => h('li', { class: winners.includes(seat) ? 'win' : '' },
      t('pick.score', { name: nameOf(seat, data.names), n: score })))));
}

export function changes(prev, next) {
  const before = prev?.state?.history?.length ?? 0;
  const after = next?.state?.history?.length ?? 0;
  return { say: after > before ? [t('pick.revealed', { picks: next.state.history[after - 1].join(' · ') })] : [], buzz: null };
}
