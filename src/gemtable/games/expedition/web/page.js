// The expedition: everything the phone, the TV and the results page draw of the game
// itself. The generic table (table.js) calls renderGame, renderActions, renderResults
// and changes; the rules page and the results page use the drawings.

import { h, put } from '/static/js/dom.js';
import { t, has, num, personName } from '/static/js/i18n.js';
import { icon } from '/static/js/icons.js';
import { resultsLater } from '/static/js/later.js';
import { seatMark } from '/static/js/seat-style.js';

export { useLooks } from '/static/js/seat-style.js';  // (table.js: each seat in its player's look)

let stage = null;
let recapper = null;  // recap.js, loaded the first time a cave ends

// page.css (beside this module) is linked on first use: the HTML pages stay the same for every game, and a
// Booty Hunter table never loads the expedition's styles.
const CSS = new URL('page.css', import.meta.url).pathname;
await (document.querySelector(`link[href="${CSS}"]`) ? Promise.resolve() : new Promise((done) => {
  const link = h('link', { rel: 'stylesheet', href: CSS, on: { load: done, error: done } });
  setTimeout(done, 3000);
  document.head.append(link);
}));

/** The table's words that read differently in this game (story.js, table.js). */
export const words = {
  'news.where': 'exp.news_where',
  'clock.beat': 'exp.clock_beat',
  'news.offline': 'exp.news_offline',
  'news.timed_out': 'exp.news_timed_out',
  'news.away': 'exp.news_away',
  'news.left_game': 'exp.news_left',
  'away.offline': 'exp.away_offline',
  'away.away': 'exp.away_away',
};

export const HAZARDS = ['snakes', 'spiders', 'mummies', 'fire', 'rockfall'];

const isTreasure = (card) => /^\d+$/.test(card);

// --- gems

export const rubies = (rules) => rules && rules.gem_display === 'rubies';

/** Gems as words ("5 gems", "1 diamond, 2 rubies"), for people and screen readers. */
export function gemsText(n, rules) {
  if (!rubies(rules)) return t('n.gems', { n });
  const d = Math.floor(n / 5);
  const r = n % 5;
  const parts = [];
  if (d) parts.push(t('n.diamonds', { n: d }));
  if (r || !d) parts.push(t('n.rubies', { n: r }));
  return parts.join(t('list.and'));
}

/** Gems as number and picture: "◆ 5", or "◇ 1 ● 2" in rubies and diamonds. */
export function gems(n, rules, cls = '') {
  const label = gemsText(n, rules);
  if (!rubies(rules)) {
    return h('span', { class: `gems ${cls}`, title: label },
      icon('gem'), h('b', { text: num(n) }), h('span', { class: 'sr-only', text: ` ${t('word.gems', { n })}` }));
  }
  const d = Math.floor(n / 5);
  const r = n % 5;
  return h('span', { class: `gems ${cls}`, title: label },
    d ? [icon('diamond'), h('b', { text: num(d) })] : null,
    r || !d ? [icon('ruby'), h('b', { text: num(r) })] : null,
    h('span', { class: 'sr-only', text: ` (${label})` }));
}

// --- cards

export function cardName(card, rules) {
  if (isTreasure(card)) return rubies(rules) ? t('n.rubies', { n: Number(card) }) : t('n.gems', { n: Number(card) });
  if (card === 'relic') return t('card.relic');
  if (card === 'relic-taken') return t('card.relic_taken');
  return t('hz.' + card);
}

/** One card as drawn on the path, in the rules, on the TV. */
export function drawCard(card, { lying = 0, rules = null, cls = '' } = {}) {
  const name = cardName(card, rules);
  if (isTreasure(card)) {
    const label = lying ? `${name}, ${t('card.lying', { gems: gemsText(lying, rules) })}` : name;
    return h('div', { class: `card treasure ${cls}`, role: 'img', 'aria-label': label },
      h('span', { class: 'val', text: card }),
      icon(rubies(rules) ? 'ruby' : 'gem'),
      lying ? h('span', { class: 'lying', title: t('card.lying', { gems: gemsText(lying, rules) }) },
        icon(rubies(rules) ? 'ruby' : 'gem'), h('b', { text: num(lying) })) : null);
  }
  if (card === 'relic' || card === 'relic-taken') {
    return h('div', { class: `card relic ${card === 'relic-taken' ? 'taken' : ''} ${cls}`, role: 'img', 'aria-label': name },
      icon(card === 'relic' ? 'relic' : 'taken'), h('span', { class: 'cn', text: name }));
  }
  return h('div', { class: `card hazard hz-${card} ${cls}`, role: 'img', 'aria-label': name },
    icon(card), h('span', { class: 'cn', text: name }));
}

// --- who is who

export function nameOf(seat, names) {
  return names[seat] ?? t('word.seat', { n: seat + 1 });
}

export function listNames(seats, names) {
  const all = seats.map((seat) => nameOf(seat, names));
  if (all.length <= 1) return all.join('');
  return all.slice(0, -1).join(t('list.comma')) + t('list.and') + all[all.length - 1];
}

/** The people of the table, each with their seat's player in this game. */
function roster(v) {
  const players = new Map((v.state?.players || []).map((p) => [p.seat, p]));
  const rows = v.table.people
    .filter((p) => (p.chair !== null && v.mode !== 'tv') || (p.seat !== null && players.has(p.seat)))
    .map((p) => ({ person: p, player: p.seat !== null ? players.get(p.seat) || null : null }));
  const order = (r) => (r.person.chair === null ? 99 : r.person.chair);
  return rows.sort((a, b) => order(a) - order(b));
}

/** How a person who is gone went: by themselves, or removed (or banned) by the host. */
export function goneText(person) {
  if (person.left === 'removed') return t('st.removed');
  if (person.left === 'banned') return t('st.banned');
  return t('st.left');
}

function statusOf(row, phase, own = null) {
  const { person, player } = row;
  if (person.status === 'gone') return ['left', goneText(person)];
  if (person.status === 'away') return ['away', t('st.away')];
  if (person.status === 'waiting' || !player) return ['waiting', t('st.waiting')];
  if (player.status === 'inside') {
    if (phase === 'playing' && person.to_act) {
      return person.chosen || person.id === own ? ['chosen', t('st.chosen')] : ['deciding', t('st.deciding')];
    }
    return ['inside', t('st.inside')];
  }
  if (player.status === 'camp') return ['camp', t('st.camp')];
  return ['out', t('st.out')];
}

// --- the game on a phone or a TV

/** Show the last cave's final reveal or collapse for the usual pause before the results (table.js). */
export const holdResults = true;

export function renderGame(el, v, ui) {
  const st = v.state;
  if (!st) return;
  const rules = st.rules;
  const local = ui.local;
  const caveKey = `${v.table.game_number}.${st.cave}`;
  const key = `${caveKey}.${st.path.length}`;
  const fresh = local.drawnKey !== key;
  const newCave = local.caveKey !== caveKey;
  local.drawnKey = key;
  local.caveKey = caveKey;
  const ended = st.phase === 'roster' || st.phase === 'over';  // ('reveal': the beat before the next card)

  const head = h('div', { class: 'cave-head' },
    h(v.heading || 'h2', { class: 'cave-title', text: t('exp.cave', { cave: st.cave, caves: st.caves }) }),
    h('span', { class: 'deck-left', text: t('exp.deck_left', { n: st.deck_left }) }));

  const lastIndex = st.path.length - 1;
  const path = h('ol', { class: 'path', 'aria-label': t('exp.path') },
    st.path.map((c, i) => h('li', null, drawCard(c.card, {
      lying: c.gems, rules,
      cls: [i === lastIndex && fresh ? 'new' : '', i === lastIndex && st.collapsed_by ? 'collapser' : '',
        st.danger.includes(c.card) && !ended ? 'warned' : ''].join(' '),
    }))));
  const onPath = st.path.reduce((sum, c) => sum + c.gems, 0);
  const pathFoot = st.collapsed_by ? null : h('p', { class: 'path-foot' },
    h('span', null, t('exp.on_path'), ' ', gems(onPath, rules)),
    st.path.some((c) => c.card === 'relic')
      ? h('span', null, ' · ', t('exp.relic_next', { n: st.next_relic_value })) : null);

  let recap = null;
  if (ended && recapper?.recap) recap = recapper.recap(v);
  else if (ended) recapper ??= import('./recap.js').then((m) => { recapper = m; ui.rerender(); });
  if (v.mode === 'tv') {  // the stage (stage.js beside this module: the TV alone loads it)
    if (stage?.renderStage) stage.renderStage(el, v, { reveal: reveal(v, ui), head, path, pathFoot, players: players(v), danger: danger(st, ended), recap }, local);
    else stage ??= import('./stage.js').then((m) => { stage = m; ui.rerender(); });
  } else {
    const own = tapped(v, local);
    put(el, safe(v), reveal(v, ui), recap, head, newCard(v, fresh, own), path, pathFoot, danger(st, ended),
      v.mode === 'phone' ? mine(v) : null, players(v, own));
  }
  el.classList.toggle('collapsed', Boolean(st.collapsed_by));
  // A new cave (or Play again) on a page scrolled down (the lobby's bots, the results' chart):
  // back to the top, where the new card is. (After this render has hidden what was above it.)
  if (newCave && v.mode !== 'tv') requestAnimationFrame(() => window.scrollTo(0, 0));
}

/** The phone: the card that just turned, large, and who is still deciding. */
function newCard(v, fresh, own = null) {
  const st = v.state;
  if (!st.path.length) return null;
  const last = st.path[st.path.length - 1];
  const deciding = v.table.phase === 'playing'
    ? v.table.people.filter((p) => p.to_act && !p.chosen && p.id !== own).map(personName) : null;
  return h('section', { class: 'newcard', 'aria-label': t('exp.new_card') },
    drawCard(last.card, { lying: last.gems, rules: st.rules,
      cls: [fresh ? 'new' : '', st.collapsed_by ? 'collapser' : ''].join(' ') }),
    h('div', { class: 'newcard-side' },
      h('p', { class: 'newcard-label', text: t('exp.new_card') }),
      h('p', { class: 'newcard-name', text: cardName(last.card, st.rules) }),
      deciding === null ? null : h('p', { class: ['deciding', !deciding.length && 'done'],
        text: deciding.length ? t('exp.still_deciding', { names: deciding.join(t('list.comma')) })
          : t('exp.all_chosen') })));
}

function danger(st, ended) {
  const odds = typeof st.collapse_chance === 'number' && !ended
    ? h('p', { class: 'odds' }, t('exp.odds'), ' ', h('b', { text: `${Math.round(st.collapse_chance * 100)}%` }))
    : null;
  const deadly = ended ? [] : HAZARDS.filter((k) => st.danger.includes(k));
  const note = st.collapsed_by ? t('exp.collapsed_note', { kind: t('hz.' + st.collapsed_by) })
    : ended ? t('exp.cave_over')
      : deadly.length ? t('exp.warning', { kinds: deadly.map((k) => t('hz.' + k)).join(t('list.or')) })
        : t('exp.no_hazard');
  return h('section', { class: 'danger', 'aria-label': t('exp.hazards') },
    h('h2', { class: 'h3', text: t('exp.hazards') }),
    h('ul', { class: 'hazards' }, HAZARDS.map((k) => {
      const on = ended ? st.collapsed_by === k : st.danger.includes(k);
      return h('li', { class: ['hz', `hz-${k}`, on && 'deadly'] },
        icon(k), h('span', { class: 'hn', text: t('hz.' + k) }),
        h('span', { class: on ? 'hs' : 'sr-only', text: on ? t('exp.deadly') : t('exp.safe') }));
    })),
    h('p', { class: deadly.length || st.collapsed_by ? 'warn' : 'calm', text: note }),
    odds);
}

/** A player back in camp while the others go on: a banner at the top says so (not a wait with no buttons). */
function safe(v) {
  const me = v.me;
  const player = me && me.seat !== null ? v.state.players.find((p) => p.seat === me.seat) : null;
  if (!player || player.status !== 'camp' || v.state.phase !== 'choose' || v.mode !== 'phone') return null;
  const kept = [gemsText(player.chest ?? 0, v.state.rules), ...player.relics.map((n) => t('exp.relic_worth', { n }))];
  return h('p', { class: 'safe-camp' }, icon('camp'), h('span', { text: t('exp.safe_camp', { gems: kept.join(t('list.and')) }) }));
}

function mine(v) {
  const st = v.state;
  const me = v.me;
  const player = me && me.seat !== null ? st.players.find((p) => p.seat === me.seat) : null;
  if (!player) return null;
  const rules = st.rules;
  return h('section', { class: 'mine', 'aria-label': t('exp.mine') },
    h('div', { class: 'stat carry' }, h('span', { class: 'lbl', text: t('exp.carry') }), gems(player.carried, rules, 'big')),
    h('div', { class: 'stat chest' }, h('span', { class: 'lbl', text: t('exp.chest') }), gems(player.chest ?? 0, rules, 'big'),
      h('span', { class: 'note', text: t('exp.chest_secret') })),
    player.relics.length ? h('div', { class: 'stat relics' }, h('span', { class: 'lbl', text: t('exp.relics') }),
      relicIcons(player.relics)) : null);
}

function botTag(kind) {
  return t('people.bot_of', { kind: has('bot.' + kind) ? t('bot.' + kind) : kind });
}

export function relicIcons(values) {
  return h('span', { class: 'relic-list' }, values.map((val) =>
    h('span', { class: 'relic-chip', title: t('exp.relic_worth', { n: val }) }, icon('relic'), h('b', { text: val }))));
}

function decisionOf(v) {
  return `${v.table.game_number}.${v.state.cave}.${v.state.path.length}`;
}

/** Me, while my tap awaits the server's word (up to 1 s on a busy server): shown chosen at once. */
function tapped(v, local) {
  const sent = local.optimistic;
  return sent && v.me && v.table.phase === 'playing' && sent.key === decisionOf(v) ? v.me.id : null;
}

function players(v, own = null) {
  const st = v.state;
  const rows = roster(v);
  const phase = v.table.phase;
  return h('section', { class: 'players' },
    h('h2', { class: 'h3', text: t('exp.players') }),
    h('ul', null, rows.map((row) => {
      const [code, label] = statusOf(row, phase, own);
      const { person, player } = row;
      const isMe = v.me && v.me.id === person.id;
      return h('li', { class: ['player', `s-${code}`, isMe && 'is-me'] },
        h('span', { class: 'mark', 'aria-hidden': 'true' },
          code === 'chosen' ? icon('check') : code === 'camp' ? icon('camp') : code === 'inside' || code === 'deciding'
            ? icon('deeper') : person.bot ? icon('bot') : null),
        h('span', { class: 'name' }, player ? seatMark(player.seat) : null, personName(person),
          isMe ? h('span', { class: 'tag', text: ` (${t('people.you')})` }) : null,
          person.bot ? h('span', { class: 'tag' }, h('span', { class: 'sep', text: ' · ' }), botTag(person.bot)) : null,
          !person.connected && person.status !== 'gone'
            ? h('span', { class: 'tag' }, h('span', { class: 'sep', text: ' · ' }), t('st.offline')) : null),
        h('span', { class: 'st', text: label }),
        player ? h('span', { class: 'carried', title: code === 'camp' ? null : t('exp.carries') },  // camp: what they took out
          gems(code === 'camp' ? player.banked ?? 0 : player.carried, st.rules)) : h('span'),
        player && player.relics.length ? relicIcons(player.relics) : null);
    })));
}

/** The last reveal, or the collapse: who walked out, what they took, who was buried. */
function reveal(v, ui) {
  const st = v.state;
  const local = ui.local;
  const rules = st.rules;
  const r = st.reveal;
  const offline = r ? v.table.offline || [] : [];
  const late = r ? [...new Set([...(v.table.timed_out || []), ...offline])] : [];
  const me = v.me && v.me.seat !== null && v.me.seat !== undefined ? v.me.seat : null;
  const mineLate = me !== null && r && late.includes(me) && r.leavers.includes(me)
    ? h('p', { class: 'timed-out', text: lateText(r, me, offline.includes(me), rules) }) : null;
  if (st.collapsed_by) {
    const lost = lostBy(st, local, v.table.game_number);
    const victims = Object.keys(lost).map(Number);
    const fresh = local.collapseKey !== `${v.table.game_number}.${st.cave}`;
    local.collapseKey = `${v.table.game_number}.${st.cave}`;
    return h('section', { class: ['collapse', fresh && 'shake'] },
      h('div', { class: 'collapse-icon' }, icon(st.collapsed_by)),
      h('div', { class: 'collapse-text' },
        h('h2', { text: t('exp.collapse') }),
        h('p', { class: 'big', text: t('exp.collapse_by', { kind: t('hz.' + st.collapsed_by) }) }),
        mineLate,
        victims.length ? h('ul', { class: 'lost' }, victims.map((seat) => h('li', {
          text: t('exp.lost', { name: nameOf(seat, v.names), gems: gemsText(lost[seat], rules) }) }))) : null,
        leavers(st, v.names, late, offline),
        v.table.phase === 'pause' ? h('p', { class: 'next', text: t('exp.next_soon') }) : null));
  }
  if (!r) return null;
  const over = v.table.phase === 'pause' || v.table.phase === 'results';
  const key = `${v.table.game_number}.${st.cave}.${st.path.length + (st.phase === 'reveal')}.${over}`;  // one pop
  const fresh = local.revealKey !== key;
  local.revealKey = key;
  return h('section', { class: ['reveal', over && 'over', fresh && 'pop'], 'aria-label': t('exp.reveal') },
    over ? h('h2', { text: st.deck_ran_out ? t('exp.deck_out') : t('exp.all_out') }) : null,
    mineLate,
    leavers(st, v.names, late, offline),
    r.deeper.length ? h('p', { class: 'went-deeper' }, icon('deeper'),
      h('span', { text: r.leavers.length ? t('exp.went_deeper', { names: listNames(r.deeper, v.names) })
        : t('exp.all_deeper') })) : null);
}

/** "Time ran out: you went back to camp with 2 gems." — and the relic, when it came out with them alone. */
function lateText(r, me, offline, rules) {
  const gems = gemsText((r.banked[r.leavers.indexOf(me)] ?? 0) + r.path_share, rules);
  const relic = r.leavers.length === 1 ? r.relics.reduce((a, b) => a + b, 0) : 0;
  return t(offline ? 'exp.offline_me' : 'exp.timed_out_me', { gems }) + (relic ? ` ${t('exp.took_relic', { n: relic })}` : '');
}

/** Who lost what at the collapse, by seat: from the view (so a reload still knows), else from the
 *  state this page saw before the card (a server from before the view carried it). */
function lostBy(st, local, game) {
  const r = st.reveal;
  if (r && Array.isArray(r.lost) && r.lost.length === r.deeper.length && r.lost.length) {
    return Object.fromEntries(r.deeper.map((seat, i) => [seat, r.lost[i]]));
  }
  return local.lost && local.lostKey === `${game}.${st.cave}` ? local.lost : {};
}

function leavers(st, names, late = [], offline = []) {
  const r = st.reveal;
  if (!r || !r.leavers.length) return null;
  const rules = st.rules;
  const relic = r.relics.reduce((a, b) => a + b, 0);
  const lone = r.relics.length > 0 && r.leavers.length === 1;
  return h('ul', { class: 'leavers' }, r.leavers.map((seat, i) => {
    const banked = r.banked[i] ?? 0;
    const onlyRelic = lone && !banked && !r.path_share;
    const took = onlyRelic ? t('exp.took_only_relic', { name: nameOf(seat, names), n: relic })
      : tookText(seat, banked, r.path_share, names, rules);
    return h('li', null, icon(onlyRelic ? 'relic' : 'camp'), h('span', { text: took }),
      late.includes(seat) ? h('span', { class: ['late', offline.includes(seat) && 'offline'],
        text: offline.includes(seat) ? t('exp.offline') : t('exp.timed_out') }) : null,
      lone && !onlyRelic
        ? h('strong', { class: 'relic-note' }, icon('relic'), t('exp.took_relic', { n: relic }))
        : null);
  }));
}

/** "Ann walked out: banked 1 gem + 2 gems from the path." (shorter when there was less to take). */
function tookText(seat, banked, share, names, rules) {
  const name = nameOf(seat, names);
  if (!banked && !share) return t('exp.took_nothing', { name });
  if (!share) return t('exp.took_carried', { name, carried: gemsText(banked, rules) });
  return t('exp.took', { name, carried: gemsText(banked, rules), share: gemsText(share, rules) });
}

// --- the two buttons

export function renderActions(el, v, ui) {
  const local = ui.local;
  const table = v.table;
  const me = v.me;
  const st = v.state;
  const can = table.phase === 'playing' && me && me.moves && me.moves.length > 0 && st;
  if (!local.buttons) {
    const button = (move) => h('button', { type: 'button', class: `move move-${move}`, id: `move-${move}`,
      on: { click: () => {
        if (ui.send({ type: 'choose', move })) local.optimistic = { move, key: local.decision };
        ui.rerender();
      } } }, icon(move), h('span', { class: 'mv' }), ' ', h('span', { class: 'sub' }), ' ', h('span', { class: 'ok' }));
    local.note = h('p', { class: 'choice-note' });  // (the pressed button says it to screen readers)
    local.silence = h('p', { class: 'silence' });
    local.buttons = { deeper: button('deeper'), camp: button('camp') };
    put(el, local.note, h('div', { class: 'moves' }, local.buttons.deeper, local.buttons.camp), local.silence);
  }
  el.hidden = !can;
  if (!can) {
    document.body.style.removeProperty('--actions-h');
    return;
  }
  local.silence.textContent = v.table.settings.turn_clock === false
    ? t('exp.silence_free', { n: Math.round(v.table.settings.absent_grace) }) : t('exp.silence');
  local.decision = decisionOf(v);
  if (local.optimistic && (local.optimistic.key !== local.decision || me.choice === local.optimistic.move)) {
    local.optimistic = null;
  }
  const choice = local.optimistic ? local.optimistic.move : me.choice;
  const player = st.players.find((p) => p.seat === me.seat);
  const carried = player ? player.carried : 0;
  for (const [move, btn] of Object.entries(local.buttons)) {
    const chosen = choice === move;
    btn.classList.toggle('chosen', chosen);
    btn.classList.toggle('other', Boolean(choice) && !chosen);
    btn.setAttribute('aria-pressed', chosen ? 'true' : 'false');
    btn.querySelector('.mv').textContent = t('exp.' + move);
    btn.querySelector('.sub').textContent = move === 'camp'
      ? t('exp.camp_sub', { gems: gemsText(carried, st.rules) }) : t('exp.deeper_sub');
    btn.querySelector('.ok').textContent = chosen ? t('exp.chosen') : '';
  }
  const note = choice ? t('exp.your_choice', { move: t('exp.' + choice) }) : t('exp.choose');
  if (local.note.textContent !== note) local.note.textContent = note;
  // The page keeps its last rows clear of the bar, however tall the bar is in this language.
  document.body.style.setProperty('--actions-h', `${Math.ceil(el.getBoundingClientRect().height)}px`);
}

// --- the results

/** Scores, winners and the chart (results.js beside this module). */
export const renderResults = resultsLater(() => import('./results.js'));

// --- what changed

/** "Final scores: Ann 8, Bob 4." (best first), as the live region says it. */
export function standings(scores, names) {
  const seats = (scores || []).map((_, seat) => seat).sort((x, y) => scores[y] - scores[x] || x - y);
  return t('results.standings', { list: seats.map((seat) => `${nameOf(seat, names)} ${num(scores[seat])}`).join(t('list.comma')) });
}

/** Announcements and vibration for what changed between two states. */
export function changes(prev, next, ui) {
  const say = [];
  let buzz = null;
  const a = prev.state;
  const b = next.state;
  if (!b) return { say, buzz };
  const sameGame = a && prev.game_number === next.game_number;
  const sameCave = sameGame && a.cave === b.cave;
  const names = {};
  for (const p of next.people) if (p.seat !== null) names[p.seat] = personName(p);
  const revealed = b.reveal && prev.phase !== 'reveal' && (next.phase === 'reveal' || !sameCave
    || a.path.length !== b.path.length || !a.reveal || JSON.stringify(a.reveal) !== JSON.stringify(b.reveal));
  let moment = null;
  if (revealed && b.reveal.leavers.length) {
    const me = next.me && next.me.seat !== null ? next.me.seat : null;
    const late = next.timed_out || [];
    if (me !== null && late.includes(me) && b.reveal.leavers.includes(me)) {
      say.push(lateText(b.reveal, me, (next.offline || []).includes(me), b.rules));
    }
    say.push(b.reveal.leavers.map((seat, i) => tookText(seat, b.reveal.banked[i] ?? 0, b.reveal.path_share,
      names, b.rules)).join(' '));
    moment = 'reveal';
  }
  const turned = b.path.length > 0 && (!sameCave || a.path.length < b.path.length);
  if (turned && b.collapsed_by && !(sameCave && a.collapsed_by)) {
    const lost = {};
    const before = new Map((sameCave ? a.players : []).map((p) => [p.seat, p.carried]));
    for (const seat of b.reveal ? b.reveal.deeper : []) lost[seat] = before.get(seat) ?? 0;
    ui.local.lost = lost;
    ui.local.lostKey = `${next.game_number}.${b.cave}`;
    say.push(t('exp.collapse'), t('exp.collapse_by', { kind: t('hz.' + b.collapsed_by) }));
    buzz = [200, 80, 200, 80, 400];
    moment = 'collapse';
  } else if (turned) {
    const card = b.path[b.path.length - 1].card;
    const word = HAZARDS.includes(card) ? t('exp.say_hazard', { card: cardName(card, b.rules) }) : cardName(card, b.rules);
    say.push(t('exp.say_card', { cave: b.cave, card: word }));
    buzz = HAZARDS.includes(card) ? [90, 60, 90] : 70;
    moment = moment || (HAZARDS.includes(card) ? 'hazard' : 'card');
  }
  if (moment && ui.mode === 'tv') import('/static/js/sound.js').then((m) => m.play(moment)).catch(() => {}); // the TV only
  if (next.phase === 'results' && prev.phase !== 'results' && b.winners) {
    say.push(t('results.title'), b.winners.length === 1 ? t('results.winner', { name: nameOf(b.winners[0], names) })
      : t('results.winners', { names: listNames(b.winners, names) }), standings(b.scores, names));
  }
  return { say, buzz };
}
