// A finished game's replay: /t/CODE/games/N/replay, from GET /api/tables/CODE/games/N/replay.json (the server
// computes every step from the record with the game's rules; this page only shows them). The same script runs
// inside the one file `gemtable replay FILE --html OUT` writes: there the replay is in the page
// (<script type="application/json" id="replay-data">) and the game's drawing module's text beside it
// (#replay-game), and nothing is fetched. So this module imports nothing, and hands the game's module (its
// manifest's replay_page) what it needs: h, s, t, num, the names and the rules.
//
// Keys: ← → a step, Home and End the first and the last, Space plays or pauses (a step every 1.6 s).

const LANGS = { en: 'English', hu: 'Magyar', ja: '日本語' };
const KEY = 'gemtable.lang';
const SVGNS = 'http://www.w3.org/2000/svg';
const EVERY = 1600;

let doc = null;
let dict = {};
let plural = new Intl.PluralRules('en');
let drawing = null;
let at = 0;
let playing = null;
const embedded = document.getElementById('replay-data');

function fill(el, props, children) {
  for (const [key, value] of Object.entries(props || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') el.setAttribute('class', value);
    else if (key === 'text') el.textContent = String(value);
    else if (key === 'on') for (const [ev, fn] of Object.entries(value)) el.addEventListener(ev, fn);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat(3)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}
const h = (tag, props, ...children) => fill(document.createElement(tag), props, children);
const s = (tag, props, ...children) => fill(document.createElementNS(SVGNS, tag), props, children);
const $ = (id) => document.getElementById(id);

/** The text for key, {name} placeholders filled; {n} picks the plural form. */
function t(key, vars = {}) {
  let text = dict[key];
  if (text === undefined) return key;
  if (typeof text === 'object') text = text[plural.select(Number(vars.n ?? 0))] ?? text.other;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in vars ? String(vars[name]) : m));
}
const num = (n) => new Intl.NumberFormat(doc?.lang || 'en').format(n);
// A name isolated (FSI … PDI): a right-to-left name does not reorder the words around it.
const name = (seat) => `\u2068${doc.names[String(seat)] || t('rp.seat', { n: Number(seat) + 1 })}\u2069`;
const names = (seats) => seats.map(name).join(t('rp.and'));

function pickLang() {
  let saved = null;
  try { saved = localStorage.getItem(KEY); } catch { /* private mode */ }
  if (saved && saved in LANGS) return saved;
  for (const tag of navigator.languages || [navigator.language || 'en']) {
    const base = String(tag).toLowerCase().split('-')[0];
    if (base in LANGS) return base;
  }
  return 'en';
}

function where() {
  const parts = location.pathname.split('/');
  return { code: (parts[2] || '').toUpperCase().replace(/[^A-Z]/g, ''), number: parts[4] || '' };
}

function use(data) {
  doc = data;
  dict = data.strings || {};
  plural = new Intl.PluralRules(data.lang);
  document.documentElement.lang = data.lang;
}

async function fetchReplay(lang) {
  const { code, number } = where();
  let res = null;
  try { res = await fetch(`/api/tables/${code}/games/${number}/replay.json?lang=${lang}`); } catch { res = null; }
  if (res && res.ok) return { data: await res.json() };
  const answer = res ? await res.json().catch(() => ({})) : {};
  return { error: answer.error || 'network', message: answer.message || '' };
}

// --- the steps ------------------------------------------------------------------------------------

/** A step told by the page alone (a game without a drawing module): who moved, and how. */
const plain = {
  where: (steps, i) => t('rp.step', { n: i + 1, of: steps.length }),
  draw(step, prev, ctx) {
    const moves = Object.entries(step.moves || {}).map(([seat, move]) => t('rp.move', { name: ctx.name(seat), move }));
    const say = step.end ? t('rp.ended') : step.round ? t('rp.round', { names: ctx.names(step.round) }) : moves.join(' ');
    return { title: say, say, node: h('p', { text: say }) };
  },
};

function context() {
  return { h, s, t, num, name, names, rules: doc.rules, doc };
}

function show(i) {
  const steps = doc.steps;
  at = Math.max(0, Math.min(steps.length - 1, i));
  const game = drawing || plain;
  const step = steps[at];
  const drawn = game.draw(step, at ? steps[at - 1] : null, context(), at === steps.length - 1);
  const counter = `${t('rp.step', { n: num(at + 1), of: num(steps.length) })}${game.where ? ` · ${game.where(steps, at, context())}` : ''}`;
  $('rp-counter').textContent = counter;
  $('rp-step-title').textContent = drawn.title;
  $('rp-stage').replaceChildren(drawn.node);
  $('rp-live').textContent = `${counter}. ${drawn.say}`;
  $('rp-first').disabled = $('rp-back').disabled = at === 0;
  $('rp-last').disabled = $('rp-next').disabled = at === steps.length - 1;
  if (at === steps.length - 1) pause();
}

function play() {
  if (playing) return;
  if (at === doc.steps.length - 1) show(0);
  playing = setInterval(() => show(at + 1), EVERY);
  $('rp-play').textContent = t('rp.pause');  // (its name says what it does now: no aria-pressed besides)
}

function pause() {
  if (playing) clearInterval(playing);
  playing = null;
  $('rp-play').textContent = t('rp.play');
}

const toggle = () => (playing ? pause() : play());

function onKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey || !doc) return;
  const target = event.target;
  if (target instanceof HTMLSelectElement || target instanceof HTMLInputElement) return;
  const go = { ArrowLeft: () => show(at - 1), ArrowRight: () => show(at + 1), Home: () => show(0),
    End: () => show(doc.steps.length - 1) }[event.key];
  if (go) { pause(); go(); event.preventDefault(); return; }
  // Space on a button presses that button (as everywhere); anywhere else it plays or pauses.
  if (event.key === ' ' && !(target instanceof HTMLButtonElement) && !(target instanceof HTMLAnchorElement)) {
    toggle();
    event.preventDefault();
  }
}

// --- the page -------------------------------------------------------------------------------------

function texts() {
  const { code } = where();
  const game = t(`game.${doc.game}`);
  $('rp-title').textContent = doc.number ? t('rp.title', { n: doc.number, game }) : t('rp.title_bare', { game });
  document.title = `${$('rp-title').textContent} · gemtable`;
  for (const el of document.querySelectorAll('.table-code')) el.textContent = doc.table || (embedded ? '' : code);
  $('rp-controls').setAttribute('aria-label', t('rp.controls'));
  for (const [id, key] of [['rp-first', 'rp.first'], ['rp-back', 'rp.back'], ['rp-next', 'rp.next'], ['rp-last', 'rp.last']]) {
    $(id).textContent = t(key);
  }
  $('rp-play').textContent = t(playing ? 'rp.pause' : 'rp.play');
  $('rp-keys').textContent = t('rp.keys');
  $('rp-status').textContent = doc.ended ? t('rp.ended_early') : '';
  const links = $('rp-links');
  if (!embedded && doc.table && doc.number) {
    links.replaceChildren(
      h('a', { class: 'tap', href: `/t/${doc.table}/results/${doc.number}`, text: t('rp.results') }),
      h('a', { class: 'tap', href: `/t/${doc.table}/night`, text: t('rp.night') }));
  }
}

function langSwitch() {
  const select = h('select', { class: 'lang', 'aria-label': 'Language / Nyelv / 言語', id: 'lang' },
    Object.entries(LANGS).map(([code, label]) => h('option', { value: code, text: label })));
  select.value = doc.lang;
  select.addEventListener('change', async () => {
    try { localStorage.setItem(KEY, select.value); } catch { /* private mode */ }
    const { data } = await fetchReplay(select.value);
    if (!data) return;
    use(data);
    texts();
    show(at);
  });
  return select;
}

async function main() {
  if (embedded) {
    use(JSON.parse(embedded.textContent));
    const source = $('replay-game').textContent;
    if (source.trim()) drawing = await import(`data:text/javascript;charset=utf-8,${encodeURIComponent(source)}`);
    $('lang-slot').remove();
  } else {
    const got = await fetchReplay(pickLang());
    if (!got.data) {  // the shared words alone say why
      const lang = pickLang();
      dict = await fetch(`/static/i18n/replay.${lang}.json`).then((res) => res.json()).catch(() => ({}));
      document.documentElement.lang = lang;
      $('rp-title').textContent = t('rp.heading');
      $('rp-status').textContent = t(`rp.err.${got.error}`);
      return;
    }
    use(got.data);
    if (doc.drawing) drawing = await import(doc.drawing);
    $('lang-slot').replaceWith(langSwitch());
  }
  texts();
  for (const [id, fn] of [['rp-first', () => show(0)], ['rp-back', () => show(at - 1)], ['rp-play', toggle],
    ['rp-next', () => show(at + 1)], ['rp-last', () => show(doc.steps.length - 1)]]) {
    $(id).addEventListener('click', () => { if (id !== 'rp-play') pause(); fn(); });
  }
  document.addEventListener('keydown', onKey);
  $('rp-player').hidden = false;
  show(0);
}

main();
