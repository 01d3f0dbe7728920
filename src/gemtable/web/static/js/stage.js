// The TV's own part of the table page (tv.js hands it to runTable; a phone never loads it): its words
// (i18n/tv.LANG.json), the big "Waiting for: Bob" line, the queue of watchers and, between caves and at the end,
// the audience's standings (issue 42) under the stage. The game's
// own stage is its module's (the expedition's stage.js); the type scale is tv.css's.

import { h, $, put, show } from './dom.js';
import { t, applyStatic, loadTexts, personName } from './i18n.js';
import { seatMark } from './seat-style.js';

/** The TV's words, before the first drawing. */
export async function texts() {
  await loadTexts('tv');
  applyStatic();
}

const listed = (names) => names.join(t('list.comma'));

/** Who the room waits for: the people (and bots) asked to move who have not yet, while a decision is open. */
export function waitingFor(table) {
  if (table.phase !== 'playing' || table.paused) return [];
  return table.people.filter((p) => p.to_act && !p.chosen);
}

/** Under the stage: "Waiting for: Bob" (large) and, in a game, the queue of watchers. */
export function renderStage(app) {
  const table = app.table;
  const foot = $('#tv-foot');
  if (!foot || !table) return;
  // The side column's slot a game fills (the expedition's hazards) is that game's: the table switched to another
  // game, it is emptied.
  const side = $('#tv-hazards');
  if (side && side.dataset.game && side.dataset.game !== table.game) {
    put(side);
    delete side.dataset.game;
  }
  if (table.phase === 'lobby') lobbyMarks(app);
  const waiting = waitingFor(table);
  const inGame = table.phase !== 'lobby' && table.phase !== 'results';
  const queue = inGame ? table.queue.map((id) => table.people.find((p) => p.id === id)).filter(Boolean) : [];
  const more = Math.max(0, (table.queue_length || 0) - queue.length);
  const lines = [];
  if (waiting.length) {
    lines.push(h('p', { class: 'waiting-for', id: 'waiting-for' },
      h('span', { class: 'lbl', text: t('tv.waiting_for') }), ' ',
      h('b', { text: listed(waiting.map(personName)) })));
  }
  const next = inGame ? table.people.filter((p) => p.chair !== null && p.status === 'waiting') : [];
  if (next.length) {  // seated for the next game (the stage shows this game's players)
    lines.push(h('p', { class: 'tv-queue', id: 'tv-next', text: t('tv.next', { names: listed(next.map(personName)) }) }));
  }
  if (queue.length) {
    const names = listed(queue.map(personName)) + (more ? t('list.comma') + t('tv.more', { n: more }) : '');
    lines.push(h('p', { class: 'tv-queue', id: 'tv-queue', text: t('tv.queue', { n: queue.length + more, names }) }));
  }
  const board = inGame ? [] : nightStandings(app);
  if (board.length) {
    lines.push(h('p', { class: 'tv-queue tv-night', id: 'tv-night' },
      h('span', { class: 'lbl', text: t('tv.night') }), ' ',
      board.map((entry, i) => h('span', { class: 'night-item' }, i ? ' · ' : '',
        t('tv.night_item', { place: entry.place, name: `\u2068${entry.name}\u2069`, n: entry.points })))));
  }
  const ranked = table.audience?.standings || [];  // the audience's first five, between caves and at the end
  if (ranked.length && (table.phase === 'pause' || table.phase === 'results')) {
    lines.push(h('p', { class: 'tv-queue tv-night', id: 'tv-audience' }, h('span', { class: 'lbl', text: t('tv.audience') }),
      ' ', ranked.map((r, i) => h('span', { class: 'night-item' }, i ? ' · ' : '',
        t('tv.audience_row', { rank: r.rank, name: `\u2068${r.name}\u2069`, n: r.points })))));
  }
  show(foot, lines.length > 0);
  put(foot, lines);
  fitNight();
  fitLines(app);
}

const night = { count: 0, board: [], app: null };

/** The night's standings (``GET /api/tables/CODE/games``), in the lobby and at the results from a night's second
 *  finished game on: asked again whenever a game finishes, and drawn when they come. */
function nightStandings(app) {
  const count = (app.table.results || []).length;
  night.app = app;
  if (count !== night.count) {
    night.count = count;
    night.board = [];
    if (count >= 2) {
      fetch(`/api/tables/${app.code}/games`).then((res) => (res.ok ? res.json() : null)).then((answer) => {
        if (!answer || night.count !== count) return;
        night.board = answer.standings || [];
        renderStage(night.app);
      }).catch(() => {});
    }
  }
  return night.board;
}

/** The night's line shows whole entries only, the leaders first: those the line's width cuts are left out. */
function fitNight() {
  for (const line of document.querySelectorAll('#tv-night, #tv-audience')) {  // (the audience's line too)
    const items = [...line.querySelectorAll('.night-item')];
    items.forEach((item) => { item.hidden = false; });
    for (let i = items.length - 1; i > 0 && line.scrollWidth > line.clientWidth + 1; i -= 1) items[i].hidden = true;
  }
}

/** The results chart's words at the TV's smallest type whatever the size its drawing is shown at. */
function chartText() {
  const small = parseFloat(getComputedStyle(document.body).fontSize) || 20;
  for (const svg of document.querySelectorAll('#results .chart-svg')) {
    const scale = svg.getScreenCTM()?.a;
    if (scale) svg.style.setProperty('--tick', `${(small / scale).toFixed(2)}px`);
  }
}

const STORY_PAGE = 8000;  // ms each page of a long "What happened" is shown
let page = { from: 0, timer: null, app: null };

/** "Lately" and the results' "What happened" show whole lines only: a line its box would cut is left out
 *  (``off``, the newest of "Lately" come first); a story longer than its box pages on a timer, from the line
 *  after the last one shown. Again at every drawing and when the screen changes size. */
function fitLines(app) {
  page.app = app;
  chartText();
  fitPlayers();
  wholeLines(document.getElementById('tv-news'), 0);
  const story = document.getElementById('results-story');
  const all = story && !story.hidden ? story.querySelectorAll('.story li').length : 0;
  if (page.from >= all) page.from = 0;
  const shown = wholeLines(story, page.from);
  const paging = all > 0 && shown < all;
  if (paging && !page.timer) {
    page.timer = setInterval(() => {
      const box = document.getElementById('results-story');
      const count = box ? box.querySelectorAll('.story li').length : 0;
      page.from = box && !box.hidden ? page.from + Math.max(1, wholeLines(box, page.from)) : 0;
      if (page.from >= count) page.from = 0;
      wholeLines(box, page.from);
    }, STORY_PAGE);
  } else if (!paging && page.timer) {
    clearInterval(page.timer);
    page.timer = null;
    page.from = 0;
  }
}

/** The explorers' region keeps every explorer whole: when their rows are taller than its share of the
 *  stage (long names, relics carried, a language's long statuses), the bots' kinds under their names are left
 *  out (``tight``), the line the room needs least. */
function fitPlayers() {
  const box = document.querySelector('#game .players');
  const list = box && box.querySelector('ul');
  if (!list) return;
  box.classList.remove('tight');
  if (list.getBoundingClientRect().bottom > box.getBoundingClientRect().bottom + 1) box.classList.add('tight');
}

/** The lines of ``box``'s list from line ``from`` that it shows whole (the others hidden); how many. */
function wholeLines(box, from) {
  const list = box && !box.hidden ? box.querySelector('.story') : null;
  if (!list) return 0;
  box.classList.remove('none');
  const items = [...list.children];
  items.forEach((li, i) => {
    li.hidden = i < from;
    li.classList.remove('off');
  });
  const bottom = list.getBoundingClientRect().bottom + 1;
  let cut = false;
  let shown = 0;
  for (const li of items.slice(from)) {
    cut = cut || li.getBoundingClientRect().bottom > bottom;
    li.classList.toggle('off', cut);
    if (!cut) shown += 1;
  }
  box.classList.toggle('none', !shown);  // no room for one whole line: the box is left out
  return shown;
}

addEventListener('resize', () => { if (page.app) fitLines(page.app); });

/** The lobby's people, each with the mark they will play under: their own look (kept across the table's games), or
 *  in a game whose seats belong to chairs (Booty Hunter's colours) their chair's seat's, the game's own
 *  ``seatMark``. */
function lobbyMarks(app) {
  const table = app.table;
  const seated = table.people.filter((p) => p.chair !== null).sort((a, b) => a.chair - b.chair);
  const byChair = app.catalogue?.games.find((g) => g.name === table.game)?.seats === 'chair';
  const mark = app.game?.seatMark || seatMark;
  const rows = document.querySelectorAll('#people li.person:not(.empty)');
  let next = 0;
  seated.forEach((p, i) => {  // (a person's look, kept across games, where the game has no colours of its own)
    const seat = byChair ? p.chair : p.status === 'away' ? null : next++;
    if (rows[i] && seat !== null) rows[i].prepend(byChair || p.look == null ? mark(seat, 'tv-mark') : seatMark(p.look, 'tv-mark', true));
  });
}

/** A remote's keys: the sound switch has the focus from the start (its Enter turns the sound on or off), and the
 *  arrow keys move between the top bar's controls (the sound switch, the language), as a TV browser's own
 *  spatial navigation would. */
export function remote() {
  const controls = () => [...document.querySelectorAll('.bar button:not([hidden]), .bar select')];
  const sound = document.getElementById('sound');
  if (sound && !sound.hidden && document.activeElement === document.body) sound.focus({ preventScroll: true });
  document.addEventListener('keydown', (event) => {
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    const here = document.activeElement;
    if (!step || (here.tagName === 'SELECT' && /Up|Down/.test(event.key))) return;  // a list's own keys
    const list = controls();
    const at = list.indexOf(here);
    if (!list.length) return;
    event.preventDefault();
    list[at < 0 ? 0 : (at + step + list.length) % list.length].focus();
  });
}
