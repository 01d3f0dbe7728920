// The expedition's replay, one step at a time (the shared replay page, static/js/replay.js, calls it; it imports
// nothing, so that `gemtable replay --html` can carry it inside one file). A step is a cave's start (its first
// card), a reveal (who went deeper, who walked out and what they took, then the next card: gems, a hazard, a
// relic, the second hazard that collapses the cave) or the host's end; its view is a spectator's just after it.

const isTreasure = (card) => /^\d+$/.test(card);

function cardName(card, t) {
  if (isTreasure(card)) return t('n.gems', { n: Number(card) });
  if (card === 'relic') return t('card.relic');
  if (card === 'relic-taken') return t('card.relic_taken');
  return t(`hz.${card}`);
}

const kind = (card) => (isTreasure(card) ? 'gems' : card.startsWith('relic') ? 'relic' : 'hazard');

/** "Cave 2 of 5, card 4": where in the game a step is. */
export function where(steps, i, { t }) {
  const v = steps[i].view;
  return t('rpx.where', { cave: v.cave, caves: v.caves, card: v.path.length });
}

function revealWords(step, prev, ctx) {
  const { t, names, name } = ctx;
  const v = step.view;
  const r = v.reveal;
  const said = [];
  if (!r) return said;
  if (r.deeper.length) said.push(t('rpx.deeper_said', { names: names(r.deeper) }));
  r.leavers.forEach((seat, k) => {  // what each carried, and their share of the gems left on the path
    const took = (r.banked[k] ?? 0) + (r.path_share || 0);
    const relics = r.leavers.length === 1 ? r.relics : [];
    said.push(relics.length
      ? t('rpx.took_relic', { name: name(seat), gems: t('n.gems', { n: took }), relics: relics.join(' + ') })
      : t('rpx.took', { name: name(seat), gems: t('n.gems', { n: took }) }));
  });
  const grew = prev && prev.view.cave === v.cave && v.path.length > prev.view.path.length;
  const card = v.path[v.path.length - 1]?.card;
  if (v.collapsed_by) {
    said.push(t('rpx.collapse', { card: cardName(v.collapsed_by, t) }));
    if (r.deeper.length) said.push(t('rpx.lost', { names: names(r.deeper) }));
  } else if (grew && card) {
    said.push(t('rpx.drawn', { card: cardName(card, t) }));
  } else if (v.deck_ran_out) {
    said.push(t('rpx.deck_out'));
  } else if (!r.deeper.length) {
    said.push(t('rpx.all_out'));
  }
  return said;
}

function pathList(v, ctx) {
  const { h, t } = ctx;
  return h('ol', { class: 'rp-path', 'aria-label': t('rpx.path') }, v.path.map((c, i) => h('li', {
    class: `rp-card rp-${kind(c.card)}${i === v.path.length - 1 ? ' rp-new' : ''}`,
  }, h('span', { class: 'rp-card-name', text: cardName(c.card, t) }),
  c.gems ? h('span', { class: 'rp-lying', text: t('rpx.lying', { n: c.gems }) }) : null)));
}

/** What a player did at this step (Deeper, Walk out), or, when they had nothing to choose, where they are. */
function doing(step, p, t) {
  const move = (step.moves || {})[String(p.seat)];
  if (move === undefined) return t(`rpx.status_${p.status}`);
  return t(move === 'deeper' ? 'rpx.choice_deeper' : 'rpx.choice_out');
}

function players(step, ctx) {
  const { h, t, name, num } = ctx;
  const v = step.view;
  return h('table', { class: 'rp-table' },
    h('caption', { text: t('rpx.explorers') }),
    h('thead', null, h('tr', null, ['rp.player', 'rpx.choice', 'rpx.carried'].map((key) => h('th', { scope: 'col', text: t(key) })))),
    h('tbody', null, v.players.map((p) => h('tr', { 'data-seat': p.seat },
      h('th', { scope: 'row', text: name(p.seat) }),
      h('td', { class: (step.moves || {})[String(p.seat)] === undefined ? null : 'rp-choice', text: doing(step, p, t) }),
      h('td', { class: 'rp-num', text: num(p.carried) })))));
}

function finalScores(v, ctx) {
  const { h, t, name, names, num } = ctx;
  const order = v.scores.map((score, seat) => seat).filter((seat) => v.players.some((p) => p.seat === seat))
    .sort((a, b) => v.scores[b] - v.scores[a] || a - b);
  const win = v.winners || [];
  return [
    h('p', { class: 'rp-winner', text: win.length === 1 ? t('rp.winner', { name: name(win[0]) }) : win.length ? t('rp.winners', { names: names(win) }) : '' }),
    h('table', { class: 'rp-table rp-scores' },
      h('caption', { text: t('rp.final') }),
      h('thead', null, h('tr', null, h('th', { scope: 'col', text: t('rp.player') }), h('th', { scope: 'col', text: t('rp.score') }))),
      h('tbody', null, order.map((seat) => h('tr', { 'data-seat': seat, class: win.includes(seat) ? 'rp-win' : null },
        h('th', { scope: 'row', text: name(seat) }), h('td', { class: 'rp-num rp-score', text: num(v.scores[seat]) }))))),
  ];
}

/** One step: its heading, its words (the page announces them) and its drawing. */
export function draw(step, prev, ctx) {
  const { h, t } = ctx;
  const v = step.view;
  let title;
  let said;
  if (step.end) {
    title = t('rp.ended');
    said = [title];
  } else if (step.round) {
    title = t('rpx.cave_begins', { cave: v.cave, caves: v.caves });
    said = [`${title}.`, t('rpx.first_card', { card: cardName(v.path[0]?.card ?? '', t) })];
  } else {
    said = revealWords(step, prev, ctx);
    title = v.phase === 'choose' ? t('rpx.card_title', { card: cardName(v.path[v.path.length - 1].card, t) })
      : t('rpx.cave_ends', { cave: v.cave });
  }
  if (v.scores) said.push(t('rp.final'));
  const node = h('div', { class: 'rp-exp' },
    h('p', { class: 'rp-say', text: said.join(' ') }),
    pathList(v, ctx),
    v.scores ? finalScores(v, ctx) : players(step, ctx));
  return { title, say: said.join(' '), node };
}
